-- Saves one checkpoint atomically: conflict checks and every index update in one step.
-- Writes the second layout: one index entry per checkpoint in the versions zset, the 19-digit version, ':' and the
-- attribute JSON, so no creation-time index and no attribute record. Entries of the first layout (the bare version,
-- its attributes in KEYS[4] and its creation time in KEYS[2]) stay as they are; both count for the conflict checks.
-- KEYS: 1 versions zset, 2 createdAt zset (first layout), 3 bodies hash, 4 attributes hash (first layout),
--       5 id index hash, 6 history segment contents hash, 7 history segment times hash (their expiry follows the
--       agent's), 8 agent index set (standalone mode only; in cluster mode it lives in another slot)
-- ARGV: 1 index entry (19-digit version, ':', attribute JSON), 2 checkpoint id, 3 body,
--       4 TTL in milliseconds ('0': keys never expire), 5 agent id,
--       6 '1' when the body is staged: ARGV[3] is then empty and the caller writes the body with
--         HSETNX right after this script, in the same MULTI, followed by settle.lua (large bodies never
--         pass through Lua that way)
-- Returns {0} when written, {1, body} when the version is taken, {2, version, body} when the id is
-- taken at another version, {3, version} when the id index names a version without a body.
local entry, id = ARGV[1], ARGV[2]
local version = string.sub(entry, 1, 19)
local persistent = ARGV[4] == '0'
local staged = ARGV[6] == '1'

local function refresh()
  if not persistent then
    for i = 1, 7 do
      redis.call('PEXPIRE', KEYS[i], ARGV[4])
    end
  elseif redis.call('PTTL', KEYS[1]) >= 0 or redis.call('PTTL', KEYS[6]) >= 0 then
    -- some key expires (a writer with a TTL saved here): keys 2-5 always share key 1's expiry and
    -- key 7 key 6's, so two checks find it (PTTL: -1 no expiry, -2 no key)
    for i = 1, 7 do
      redis.call('PERSIST', KEYS[i])
    end
  end
end

-- Whether the versions zset holds an entry for v, of either layout ('v' or 'v:…'; ';' follows ':').
local function indexed(v)
  return redis.call('ZRANGE', KEYS[1], '[' .. v, '(' .. v .. ';', 'BYLEX', 'LIMIT', 0, 1)[1] ~= nil
end

-- The version: claimed with HSETNX on the body. A body without an index entry is never visible: a staged
-- save whose scripts never ran (NOSCRIPT) or a deletion by a writer that knew only the first layout left it.
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

-- The id: claimed with HSETNX on the id index; an entry naming a version without an index entry is stale.
if redis.call('HSETNX', KEYS[5], id, version) == 0 then
  local at = redis.call('HGET', KEYS[5], id)
  if indexed(at) then
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
  redis.call('HSET', KEYS[5], id, version)
end

-- Without a TTL, one PTTL tells both whether some key expires and whether the agent is new (-2):
-- an agent with a versions key is always in the agent index already.
local firstSave, persist = true, false
if persistent then
  local ttl = redis.call('PTTL', KEYS[1])
  firstSave = ttl == -2
  persist = ttl >= 0 or redis.call('PTTL', KEYS[6]) >= 0
end
redis.call('ZADD', KEYS[1], 0, entry)
if not persistent then
  refresh()
elseif persist then
  for i = 1, 7 do
    redis.call('PERSIST', KEYS[i])
  end
end
if KEYS[8] and firstSave then
  redis.call('SADD', KEYS[8], ARGV[5])
end
return {0}
