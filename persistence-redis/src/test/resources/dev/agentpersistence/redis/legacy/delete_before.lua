-- Deletes an agent's checkpoints with a version strictly below a bound, a page at a time.
-- KEYS: 1 versions zset, 2 createdAt zset, 3 bodies hash, 4 attributes hash, 5 id index hash,
--       6 agent index set (standalone mode only)
-- ARGV: 1 exclusive 19-digit version bound, 2 agent id
-- Returns {deleted, remaining}.
local total = 0
while true do
  local page = redis.call('ZRANGE', KEYS[1], '-', '(' .. ARGV[1], 'BYLEX', 'LIMIT', 0, 500)
  if #page == 0 then
    break
  end
  for _, v in ipairs(page) do
    local raw = redis.call('HGET', KEYS[4], v)
    if raw then
      local ok, a = pcall(cjson.decode, raw)
      if ok and type(a) == 'table' and type(a.i) == 'string' and redis.call('HGET', KEYS[5], a.i) == v then
        redis.call('HDEL', KEYS[5], a.i)
      end
    end
  end
  redis.call('ZREM', KEYS[1], unpack(page))
  redis.call('ZREM', KEYS[2], unpack(page))
  redis.call('HDEL', KEYS[3], unpack(page))
  redis.call('HDEL', KEYS[4], unpack(page))
  total = total + #page
end
local remaining = redis.call('ZCARD', KEYS[1])
if remaining == 0 then
  redis.call('UNLINK', KEYS[2], KEYS[3], KEYS[4], KEYS[5])
  if KEYS[6] then
    redis.call('SREM', KEYS[6], ARGV[2])
  end
end
return {total, remaining}
