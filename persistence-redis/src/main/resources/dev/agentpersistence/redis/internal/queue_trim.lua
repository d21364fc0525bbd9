-- Deletes the finished items of a queue except the ARGV[1] submitted last, in one step.
-- KEYS: as in queue_write.lua, then 6 holds
-- Returns how many were deleted.
local excess = redis.call('ZCARD', KEYS[5]) - tonumber(ARGV[1])
if excess <= 0 then
  return 0
end
local doomed = redis.call('ZRANGE', KEYS[5], 0, excess - 1)
for _, member in ipairs(doomed) do
  local id = string.sub(member, 22)
  redis.call('HDEL', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
  redis.call('ZREM', KEYS[3], member)
  redis.call('ZREM', KEYS[4], id)
  redis.call('ZREM', KEYS[5], member)
  redis.call('HDEL', KEYS[6], id)
end
return #doomed
