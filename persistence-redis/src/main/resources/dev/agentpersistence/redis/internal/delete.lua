-- Deletes every checkpoint of an agent.
-- KEYS: 1 versions zset, 2 createdAt zset, 3 bodies hash, 4 attributes hash, 5 id index hash,
--       6 agent index set (standalone mode only)
-- ARGV: 1 agent id
-- Returns the number of checkpoints deleted.
local n = redis.call('ZCARD', KEYS[1])
redis.call('UNLINK', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
if KEYS[6] then
  redis.call('SREM', KEYS[6], ARGV[1])
end
return n
