-- Deletes the given history segments whose last write time is before a cutoff.
-- KEYS: 1 contents hash, 2 write times hash
-- ARGV: 1 cutoff in epoch milliseconds, 2.. segment ids
-- Returns the number of segments deleted.
local cutoff = tonumber(ARGV[1])
local n = 0
for i = 2, #ARGV do
  local written = redis.call('HGET', KEYS[2], ARGV[i])
  if written and tonumber(written) < cutoff then
    redis.call('HDEL', KEYS[1], ARGV[i])
    redis.call('HDEL', KEYS[2], ARGV[i])
    n = n + 1
  end
end
return n
