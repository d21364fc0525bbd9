-- Writes one queue item when it is the next version of what is stored (compare-and-set on the item's version).
-- KEYS: 1 items (hash id -> item), 2 versions (hash id -> "<version> <order member>"), 3 order (zset, lex members
--       "<20-digit submission time>:<id>"), 4 runnable (zset id by runnable time in ms), 5 finished (zset, lex members);
--       a sixth key, the holds (hash id -> end of a claim's hold in ms), is not versioned and not touched here
-- ARGV: 1 id, 2 version, 3 order member, 4 runnable score or "", 5 "1" when finished, 6 the encoded item
-- Returns 1 when written, 0 when another writer wrote first.
local stored = redis.call('HGET', KEYS[2], ARGV[1])
local version = 0
local member = nil
if stored then
  local space = string.find(stored, ' ', 1, true)
  version = tonumber(string.sub(stored, 1, space - 1))
  member = string.sub(stored, space + 1)
end
if tonumber(ARGV[2]) ~= version + 1 then
  return 0
end
if member and member ~= ARGV[3] then
  redis.call('ZREM', KEYS[3], member)
  redis.call('ZREM', KEYS[5], member)
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2] .. ' ' .. ARGV[3])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[6])
redis.call('ZADD', KEYS[3], 0, ARGV[3])
if ARGV[4] == '' then
  redis.call('ZREM', KEYS[4], ARGV[1])
else
  redis.call('ZADD', KEYS[4], ARGV[4], ARGV[1])
end
if ARGV[5] == '1' then
  redis.call('ZADD', KEYS[5], 0, ARGV[3])
else
  redis.call('ZREM', KEYS[5], ARGV[3])
end
return 1
