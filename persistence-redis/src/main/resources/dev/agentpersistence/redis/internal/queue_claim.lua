-- Claims up to ARGV[3] runnable items nobody holds, oldest submitted first, and holds each until ARGV[2], in one step.
-- KEYS: 1 items, 2 versions, 3 runnable, 4 holds, as in queue_write.lua
-- ARGV: 1 now in ms, 2 end of the hold in ms, 3 the most items to claim
-- Returns the encoded items claimed.
local now = tonumber(ARGV[1])
local free = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[1])) do
  local held = redis.call('HGET', KEYS[4], id)
  if not held or tonumber(held) <= now then
    local stored = redis.call('HGET', KEYS[2], id)
    free[#free + 1] = { member = string.sub(stored, string.find(stored, ' ', 1, true) + 1), id = id }
  end
end
table.sort(free, function(a, b) return a.member < b.member end)
local ids = {}
for i = 1, math.min(#free, tonumber(ARGV[3])) do
  ids[i] = free[i].id
  redis.call('HSET', KEYS[4], free[i].id, ARGV[2])
end
if #ids == 0 then
  return {}
end
return redis.call('HMGET', KEYS[1], unpack(ids))
