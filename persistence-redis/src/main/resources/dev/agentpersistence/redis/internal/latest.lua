-- Reads the newest checkpoint at or below a version: the latest query without attribute filters,
-- three commands instead of query.lua's general walk.
-- KEYS: 1 versions zset, 2 bodies hash
-- ARGV: 1 upper BYLEX bound ('+', or '[' and a 19-digit version), 2 the largest body to return,
--       3 the largest body returned inline
-- Returns what query.lua returns: {0} when there is none, {0, version, body} (the body's length, an
-- integer, when longer than ARGV[3]), {2, version} when its body is missing, {3, version, length}
-- when its body is longer than ARGV[2].
local v = redis.call('ZRANGE', KEYS[1], ARGV[1], '-', 'BYLEX', 'REV', 'LIMIT', 0, 1)[1]
if not v then
  return {0}
end
local length = redis.call('HSTRLEN', KEYS[2], v)
if length > tonumber(ARGV[2]) then
  return {3, v, length}
end
if length > tonumber(ARGV[3]) then
  return {0, v, length}
end
local body = redis.call('HGET', KEYS[2], v)
if not body then
  return {2, v}
end
return {0, v, body}
