-- Reads one checkpoint by id.
-- KEYS: 1 bodies hash, 2 id index hash
-- ARGV: 1 checkpoint id
-- Returns {0} when absent, {1, version, body} when found, {2, version} when the body is missing.
local v = redis.call('HGET', KEYS[2], ARGV[1])
if not v then
  return {0}
end
local body = redis.call('HGET', KEYS[1], v)
if not body then
  return {2, v}
end
return {1, v, body}
