-- Saves one checkpoint atomically: conflict checks and every index update in one step.
-- KEYS: 1 versions zset, 2 createdAt zset, 3 bodies hash, 4 attributes hash, 5 id index hash,
--       6 history segment contents hash, 7 history segment times hash (their expiry follows the agent's),
--       8 agent index set (standalone mode only; in cluster mode it lives in another slot)
-- ARGV: 1 19-digit version, 2 checkpoint id, 3 body, 4 attributes JSON, 5 createdAt score,
--       6 TTL in milliseconds ('0': keys never expire), 7 agent id
-- Returns {0} when written, {1, body} when the version is taken, {2, version, body} when the id is
-- taken at another version, {3, version} when the id index names a version without a body.
local function refresh()
  if ARGV[6] ~= '0' then
    for i = 1, 7 do
      redis.call('PEXPIRE', KEYS[i], ARGV[6])
    end
  elseif redis.call('PTTL', KEYS[1]) >= 0 or redis.call('PTTL', KEYS[6]) >= 0 then
    -- some key expires (a writer with a TTL saved here): keys 2-5 always share key 1's expiry and
    -- key 7 key 6's, so two checks find it (PTTL: -1 no expiry, -2 no key)
    for i = 1, 7 do
      redis.call('PERSIST', KEYS[i])
    end
  end
end

local stored = redis.call('HGET', KEYS[3], ARGV[1])
if stored then
  refresh()
  return {1, stored}
end
local at = redis.call('HGET', KEYS[5], ARGV[2])
if at then
  refresh()
  local other = redis.call('HGET', KEYS[3], at)
  if other then
    return {2, at, other}
  end
  return {3, at}
end

redis.call('ZADD', KEYS[1], 0, ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[4], ARGV[1], ARGV[4])
redis.call('HSET', KEYS[5], ARGV[2], ARGV[1])
refresh()
if KEYS[8] then
  redis.call('SADD', KEYS[8], ARGV[7])
end
return {0}
