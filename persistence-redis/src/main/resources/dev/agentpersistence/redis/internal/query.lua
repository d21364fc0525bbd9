-- Selects an agent's checkpoints newest first and stops at the limit; never reads a body that
-- does not match. Filters look only at the small attribute records.
-- KEYS: 1 versions zset, 2 bodies hash, 3 attributes hash
-- ARGV: 1 max version, 19 digits ('' = none), 2 limit ('0' = none),
--       3 createdAfter instant key ('' = none), 4 createdBefore instant key ('' = none),
--       5 '1' to filter by node id, 6 node id, 7 '1' to include tombstones, 8 the largest body to return,
--       9 the largest body returned inline, 10.. metadata key, value pairs
-- Returns {0, version, body, version, body, ...} ascending by version, where a body longer than ARGV[9]
-- is replaced by its length (an integer) for the caller to read with HMGET (Lua would copy it twice),
-- or {1, version} when the attribute record of that version is missing or unreadable, {2, version}
-- when its body is missing, or {3, version, length} when its body is longer than ARGV[8] (nothing
-- larger is ever returned).
local maxv, limit = ARGV[1], tonumber(ARGV[2])
local after, before = ARGV[3], ARGV[4]
local byNode, node, tombstones = ARGV[5] == '1', ARGV[6], ARGV[7] == '1'
local maxBody, inline = tonumber(ARGV[8]), tonumber(ARGV[9])
local readAttributes = byNode or not tombstones or after ~= '' or before ~= '' or #ARGV > 9
local broken

local function matches(v)
  if not readAttributes then
    return true
  end
  local raw = redis.call('HGET', KEYS[3], v)
  if not raw then
    broken = v
    return false
  end
  local ok, a = pcall(cjson.decode, raw)
  if not ok or type(a) ~= 'table' or type(a.c) ~= 'string' then
    broken = v
    return false
  end
  if byNode and a.n ~= node then
    return false
  end
  if not tombstones and a.t == true then
    return false
  end
  if after ~= '' and a.c < after then
    return false
  end
  if before ~= '' and a.c >= before then
    return false
  end
  if #ARGV > 9 then
    if type(a.m) ~= 'table' then
      return false
    end
    for i = 10, #ARGV, 2 do
      if a.m[ARGV[i]] ~= ARGV[i + 1] then
        return false
      end
    end
  end
  return true
end

-- Walk the versions newest first, a page at a time, resuming below the last one seen. Without
-- attribute filters every version in range matches, so a page of the limit is enough (latest: 1).
-- Creation-time ranges too: the createdAt index of older builds holds only their own saves.
local found = {}
local upper = maxv == '' and '+' or '[' .. maxv
local pageSize = 256
if not readAttributes and limit > 0 and limit < pageSize then
  pageSize = limit
end
while true do
  local page = redis.call('ZRANGE', KEYS[1], upper, '-', 'BYLEX', 'REV', 'LIMIT', 0, pageSize)
  if #page == 0 then
    break
  end
  local stop = false
  for _, v in ipairs(page) do
    if matches(v) then
      found[#found + 1] = v
    end
    if broken ~= nil or (limit > 0 and #found >= limit) then
      stop = true
      break
    end
  end
  if stop then
    break
  end
  upper = '(' .. page[#page]
end
if broken then
  return {1, broken}
end

local lengths = {}
for i = #found, 1, -1 do
  local length = redis.call('HSTRLEN', KEYS[2], found[i])
  if length > maxBody then
    return {3, found[i], length}
  end
  lengths[i] = length
end
local out = {0}
for i = #found, 1, -1 do
  local body
  if lengths[i] > inline then
    body = lengths[i]
  else
    body = redis.call('HGET', KEYS[2], found[i])
  end
  if not body or body == 0 then
    return {2, found[i]}
  end
  out[#out + 1] = found[i]
  out[#out + 1] = body
end
return out
