-- Holds one existing queue item until ARGV[2] (ms); an unknown item is left alone.
-- KEYS: 1 items, 2 holds, as in queue_write.lua
-- ARGV: 1 item id, 2 end of the hold in ms
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
end
return 1
