-- Saves one checkpoint atomically: conflict checks and every index update in one step.
-- KEYS: 1 versions zset, 2 createdAt zset, 3 bodies hash, 4 attributes hash, 5 id index hash,
--       6 history segment contents hash, 7 history segment times hash (their expiry follows the agent's),
--       8 agent index set (standalone mode only; in cluster mode it lives in another slot)
-- ARGV: 1 19-digit version, 2 checkpoint id, 3 body, 4 attributes JSON, 5 createdAt score,
--       6 TTL in milliseconds ('0': keys never expire), 7 agent id,
--       8 '1' when the body is staged: ARGV[3] is then empty and the caller writes the body with
--         HSETNX right after this script, in the same MULTI, followed by settle.lua (large bodies never
--         pass through Lua that way)
-- Returns {0} when written, {1, body} when the version is taken, {2, version, body} when the id is
-- taken at another version, {3, version} when the id index names a version without a body.
local persistent = ARGV[6] == '0'

local function refresh()
  if not persistent then
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
  if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
    refresh()
    return {1, stored}
  end
  -- a body without its version: a staged save whose scripts never ran (NOSCRIPT) left it; never visible
  redis.call('HDEL', KEYS[3], ARGV[1])
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

-- Without a TTL, one PTTL tells both whether some key expires and whether the agent is new (-2):
-- an agent with a versions key is always in the agent index already.
local firstSave, persist = true, false
if persistent then
  local ttl = redis.call('PTTL', KEYS[1])
  firstSave = ttl == -2
  persist = ttl >= 0 or redis.call('PTTL', KEYS[6]) >= 0
end
redis.call('ZADD', KEYS[1], 0, ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[1])
if ARGV[8] ~= '1' then
  redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
end
redis.call('HSET', KEYS[4], ARGV[1], ARGV[4])
redis.call('HSET', KEYS[5], ARGV[2], ARGV[1])
if not persistent then
  refresh()
elseif persist then
  for i = 1, 7 do
    redis.call('PERSIST', KEYS[i])
  end
end
if KEYS[8] and firstSave then
  redis.call('SADD', KEYS[8], ARGV[7])
end
return {0}
