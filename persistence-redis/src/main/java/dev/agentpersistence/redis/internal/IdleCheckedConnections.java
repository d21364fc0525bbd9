package dev.agentpersistence.redis.internal;

import java.time.Duration;
import org.apache.commons.pool2.PooledObject;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;

/**
 * The pooled connections of a standalone client, where "test on borrow" pings only a connection that sat idle for
 * {@link #PING_AFTER} or more: that is where a restarted server leaves dead connections. A connection returned a moment
 * ago (the steady state of a busy application) is used at once, so an operation costs one round trip instead of two (a
 * {@code PING} first); it is still refused when its socket is closed.
 */
final class IdleCheckedConnections extends ConnectionFactory {
    /** How long a connection may sit idle before it is pinged on borrow. */
    static final Duration PING_AFTER = Duration.ofSeconds(1);

    IdleCheckedConnections(HostAndPort address, JedisClientConfig config) {
        super(address, config);
    }

    @Override
    public boolean validateObject(PooledObject<Connection> pooled) {
        if (pooled.getIdleDuration().compareTo(PING_AFTER) < 0) {
            return pooled.getObject().isConnected();
        }
        return super.validateObject(pooled);
    }
}
