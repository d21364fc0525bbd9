-- Reads queue items in one step: every item in the queue's order, or (ARGV[1] a time in ms) the items runnable by then
-- that nobody holds at that time.
-- KEYS: 1 items, 2 order, 3 runnable, 4 holds (hash id -> end of the hold in ms), as in queue_write.lua
-- ARGV: 1 "" for every item, else the time in ms
-- Returns the encoded items (an item deleted meanwhile cannot be missing: one atomic step).
local ids = {}
if ARGV[1] == '' then
  for _, member in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
    ids[#ids + 1] = string.sub(member, 22)
  end
else
  local now = tonumber(ARGV[1])
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[1])) do
    local held = redis.call('HGET', KEYS[4], id)
    if not held or tonumber(held) <= now then
      ids[#ids + 1] = id
    end
  end
end
if #ids == 0 then
  return {}
end
return redis.call('HMGET', KEYS[1], unpack(ids))
