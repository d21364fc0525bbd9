package dev.agentpersistence.examples;

import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.tck.TestServices;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The real servers the examples' tests switch {@code --storage} to, located like every other module's tests:
 * {@code AGENT_PERSISTENCE_TEST_POSTGRES_URL}, {@code …_MARIADB_URL}, {@code …_REDIS_URI}, else the local defaults
 * (skipped, or failed when servers are required). Tables and keys get a per-run prefix, apart from other modules' data.
 */
public final class ServerBackends {
    /** Extra settings isolating this test run's tables and keys on shared servers. */
    public static final ProviderConfig ISOLATION = ProviderConfig.of(Map.of(
            "agent.persistence.jdbc.table-prefix", "examples_",
            "agent.persistence.jdbc.pool-size", "4",
            "agent.persistence.redis.key-prefix",
                    "agent-persistence-examples:"
                            + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36) + ":"));

    private ServerBackends() {}

    /** The {@code --storage} value of a reachable PostgreSQL. */
    public static String postgres() {
        return TestServices.postgresUrl(null);
    }

    /** The {@code --storage} value of a reachable MariaDB. */
    public static String mariadb() {
        return TestServices.mariadbUrl(null);
    }

    /** The {@code --storage} value of a reachable Redis. */
    public static String redis() {
        return TestServices.redisUri(null);
    }
}
