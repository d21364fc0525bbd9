-- Saves one checkpoint atomically: conflict checks and every index update in one step. Writes
-- four structures (versions, bodies, attributes, id index); the createdAt zset of older builds
-- (their saves still write it) only gets the agent's expiry.
-- KEYS: 1 versions zset, 2 createdAt zset (older builds), 3 bodies hash, 4 attributes hash,
--       5 id index hash, 6 history segment contents hash, 7 history segment times hash (their expiry
--       follows the agent's), 8 agent index set (standalone mode only; in cluster mode it lives in
--       another slot)
-- ARGV: 1 19-digit version, 2 checkpoint id, 3 body, 4 attributes JSON,
--       5 TTL in milliseconds ('0': keys never expire), 6 agent id,
--       7 '1' when the body is staged: ARGV[3] is then empty and the caller writes the body with
--         HSETNX right after this script, in the same MULTI, followed by settle.lua (large bodies never
--         pass through Lua that way)
--       8 the head the save expects (a conditional save): '' for none (a plain save), '-' for an
--         agent without records, else the 19-digit version of the expected newest record; 9 its id
-- Returns {0} when written, {1, body} when the version is taken, {2, version, body} when the id is
-- taken at another version, {3, version} when the id index names a version without a body, {4}
-- when the newest record is not the expected head (nothing written).
local version, id = ARGV[1], ARGV[2]
local persistent = ARGV[5] == '0'
local staged = ARGV[7] == '1'

-- A conditional save checks the head before it claims anything.
local expected = ARGV[8]
if expected and expected ~= '' then
  local newest = redis.call('ZRANGE', KEYS[1], -1, -1)[1]
  if expected == '-' then
    if newest then
      return {4}
    end
  elseif newest ~= expected or redis.call('HGET', KEYS[5], ARGV[9]) ~= expected then
    return {4}
  end
end

local function refresh()
  if not persistent then
    for i = 1, 7 do
      redis.call('PEXPIRE', KEYS[i], ARGV[5])
    end
  elseif redis.call('PTTL', KEYS[1]) >= 0 or redis.call('PTTL', KEYS[6]) >= 0 then
    -- some key expires (a writer with a TTL saved here): keys 2-5 always share key 1's expiry and
    -- key 7 key 6's, so two checks find it (PTTL: -1 no expiry, -2 no key)
    for i = 1, 7 do
      redis.call('PERSIST', KEYS[i])
    end
  end
end

local function indexed(v)
  return redis.call('ZSCORE', KEYS[1], v) ~= false
end

-- The version: claimed with HSETNX on the body. A body without its version is never visible: a staged
-- save whose scripts never ran (NOSCRIPT) left it.
local claimed = false
if staged then
  if redis.call('HEXISTS', KEYS[3], version) == 1 then
    if indexed(version) then
      refresh()
      return {1, redis.call('HGET', KEYS[3], version)}
    end
    redis.call('HDEL', KEYS[3], version)
  end
else
  if redis.call('HSETNX', KEYS[3], version, ARGV[3]) == 0 then
    if indexed(version) then
      refresh()
      return {1, redis.call('HGET', KEYS[3], version)}
    end
    redis.call('HSET', KEYS[3], version, ARGV[3])
  end
  claimed = true
end

-- The id: claimed with HSETNX on the id index.
if redis.call('HSETNX', KEYS[5], id, version) == 0 then
  local at = redis.call('HGET', KEYS[5], id)
  if claimed then
    redis.call('HDEL', KEYS[3], version)
  end
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
redis.call('ZADD', KEYS[1], 0, version)
redis.call('HSET', KEYS[4], version, ARGV[4])
if not persistent then
  refresh()
elseif persist then
  for i = 1, 7 do
    redis.call('PERSIST', KEYS[i])
  end
end
if KEYS[8] and firstSave then
  redis.call('SADD', KEYS[8], ARGV[6])
end
return {0}
