-- Selects an agent's checkpoints newest first and stops at the limit; never reads a body that
-- does not match. Filters look only at the small attribute records.
-- KEYS: 1 versions zset, 2 createdAt zset, 3 bodies hash, 4 attributes hash
-- ARGV: 1 max version, 19 digits ('' = none), 2 limit ('0' = none),
--       3 createdAfter instant key ('' = none), 4 its score, 5 createdBefore instant key ('' = none), 6 its score,
--       7 '1' to filter by node id, 8 node id, 9 '1' to include tombstones, 10 the largest body to return,
--       11 the largest body returned inline, 12.. metadata key, value pairs
-- Returns {0, version, body, version, body, ...} ascending by version, where a body longer than ARGV[11]
-- is replaced by its length (an integer) for the caller to read with HMGET (Lua would copy it twice), or {1, version} when the
-- attribute record of that version is missing or unreadable, {2, version} when its body is missing,
-- or {3, version, length} when its body is longer than ARGV[10] (nothing larger is ever returned).
local maxv, limit = ARGV[1], tonumber(ARGV[2])
local after, before = ARGV[3], ARGV[5]
local byNode, node, tombstones = ARGV[7] == '1', ARGV[8], ARGV[9] == '1'
local maxBody, inline = tonumber(ARGV[10]), tonumber(ARGV[11])
local readAttributes = byNode or not tombstones or after ~= '' or before ~= '' or #ARGV > 11
local broken

local function matches(v)
  if maxv ~= '' and v > maxv then
    return false
  end
  if not readAttributes then
    return true
  end
  local raw = redis.call('HGET', KEYS[4], v)
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
  if #ARGV > 11 then
    if type(a.m) ~= 'table' then
      return false
    end
    for i = 12, #ARGV, 2 do
      if a.m[ARGV[i]] ~= ARGV[i + 1] then
        return false
      end
    end
  end
  return true
end

local found = {}
-- Adds v when it matches; true once the limit is reached or the data is broken.
local function take(v)
  if matches(v) then
    found[#found + 1] = v
  end
  return broken ~= nil or (limit > 0 and #found >= limit)
end

local upper = maxv == '' and '+' or '[' .. maxv
local walked = false
if after ~= '' or before ~= '' then
  -- Drive by the createdAt index when its range holds fewer entries than the version range.
  local lo = after ~= '' and ARGV[4] or '-inf'
  local hi = before ~= '' and ARGV[6] or '+inf'
  if redis.call('ZCOUNT', KEYS[2], lo, hi) < redis.call('ZLEXCOUNT', KEYS[1], '-', upper) then
    local candidates = redis.call('ZRANGE', KEYS[2], lo, hi, 'BYSCORE')
    table.sort(candidates, function(x, y) return x > y end)
    for _, v in ipairs(candidates) do
      if take(v) then
        break
      end
    end
    walked = true
  end
end
if not walked then
  -- Walk the versions newest first, a page at a time, resuming below the last one seen. Without
  -- attribute filters every version in range matches, so a page of the limit is enough (latest: 1).
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
      if take(v) then
        stop = true
        break
      end
    end
    if stop then
      break
    end
    upper = '(' .. page[#page]
  end
end
if broken then
  return {1, broken}
end

local lengths = {}
for i = #found, 1, -1 do
  local length = redis.call('HSTRLEN', KEYS[3], found[i])
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
    body = redis.call('HGET', KEYS[3], found[i])
  end
  if not body or body == 0 then
    return {2, found[i]}
  end
  out[#out + 1] = found[i]
  out[#out + 1] = body
end
return out
