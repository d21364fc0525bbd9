-- Reads one checkpoint by id.
-- KEYS: 1 bodies hash, 2 id index hash
-- ARGV: 1 checkpoint id, 2 the largest body to return, 3 the largest body returned inline
-- Returns {0} when absent, {1, version, body} when found, {2, version} when the body is missing,
-- {3, version, length} when the body is longer than ARGV[2], {4, version} when it is longer than
-- ARGV[3]: the caller reads it with HGET (Lua would copy it twice).
local v = redis.call('HGET', KEYS[2], ARGV[1])
if not v then
  return {0}
end
local length = redis.call('HSTRLEN', KEYS[1], v)
if length > tonumber(ARGV[2]) then
  return {3, v, length}
end
if length > tonumber(ARGV[3]) then
  return {4, v}
end
local body = redis.call('HGET', KEYS[1], v)
if not body then
  return {2, v}
end
return {1, v, body}
