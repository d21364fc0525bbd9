-- Removes an agent from the agent index when it has no checkpoints left (standalone mode).
-- KEYS: 1 the agent's versions zset, 2 agent index set
-- ARGV: 1 agent id
-- Returns 1 when removed, 0 when the agent still has checkpoints or was not indexed.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return redis.call('SREM', KEYS[2], ARGV[1])
end
return 0
