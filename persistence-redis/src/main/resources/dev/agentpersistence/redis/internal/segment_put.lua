-- Stores one history segment unless present and records its write time.
-- KEYS: 1 contents hash, 2 write times hash
-- ARGV: 1 segment id, 2 content, 3 write time in epoch milliseconds, 4 TTL in milliseconds ('0': no expiry)
redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
for i = 1, 2 do
  if ARGV[4] ~= '0' then
    redis.call('PEXPIRE', KEYS[i], ARGV[4])
  else
    redis.call('PERSIST', KEYS[i])
  end
end
return 1
