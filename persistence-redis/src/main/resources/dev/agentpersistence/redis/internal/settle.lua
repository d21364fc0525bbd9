-- Ends a staged save: runs after save.lua and the body's HSETNX in the same MULTI, and removes the
-- body again unless the save indexed its version (it found a conflict, or did not run at all).
-- KEYS: 1 versions zset, 2 bodies hash
-- ARGV: 1 19-digit version
-- Returns 1 when the body stays, 0 when it was removed (or never written).
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return 1
end
redis.call('HDEL', KEYS[2], ARGV[1])
return 0
