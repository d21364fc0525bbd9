package dev.agentpersistence.it;

import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.tck.TestServices;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The backends of every storage provider on the test class path. A provider without settings here fails the tests, so a
 * module added to this build's dependencies cannot be left out silently. Servers come from
 * {@code AGENT_PERSISTENCE_TEST_POSTGRES_URL}, {@code AGENT_PERSISTENCE_TEST_MARIADB_URL} and
 * {@code AGENT_PERSISTENCE_TEST_REDIS_URI}, else the local defaults, via {@link TestServices}.
 */
final class Backends {
    /** Tables of server databases get this prefix, apart from other modules' tests. */
    private static final String TABLE_PREFIX = "agent_it_";
    /** Redis keys of this run start with this prefix. */
    private static final String REDIS_PREFIX =
            "agent-persistence-it:" + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36) + ":";

    private Backends() {}

    /** The backends for the named provider. */
    static List<Backend> of(String provider) {
        return switch (provider) {
            case "inmemory" -> List.of(new Backend("inmemory", "inmemory", dir -> ProviderConfig.empty()));
            case "file" ->
                List.of(new Backend(
                        "file",
                        "file",
                        dir -> ProviderConfig.of(Map.of(
                                "agent.persistence.file.dir",
                                dir.resolve("checkpoints").toString()))));
            case "jdbc" ->
                List.of(
                        new Backend(
                                "jdbc-sqlite",
                                "jdbc",
                                dir -> ProviderConfig.of(Map.of(
                                        "agent.persistence.jdbc.url", "jdbc:sqlite:" + dir.resolve("checkpoints.db")))),
                        new Backend("jdbc-postgresql", "jdbc", dir -> serverDatabase(TestServices.postgresUrl(null))),
                        new Backend("jdbc-mariadb", "jdbc", dir -> serverDatabase(TestServices.mariadbUrl(null))));
            case "redis" ->
                List.of(new Backend(
                        "redis",
                        "redis",
                        dir -> ProviderConfig.of(Map.of(
                                "agent.persistence.redis.uri",
                                TestServices.redisUri(null),
                                "agent.persistence.redis.key-prefix",
                                REDIS_PREFIX))));
            // the JSON Lines example of the examples module, a backend written against the documented extension point
            case "jsonl" ->
                List.of(new Backend(
                        "jsonl",
                        "jsonl",
                        dir -> ProviderConfig.of(Map.of(
                                "agent.persistence.jsonl.dir",
                                dir.resolve("checkpoints-jsonl").toString()))));
            // the indexed example of the examples module, over an H2 database through plain JDBC
            case "indexed" ->
                List.of(new Backend(
                        "indexed",
                        "indexed",
                        dir -> ProviderConfig.of(Map.of(
                                "agent.persistence.indexed.url",
                                "jdbc:h2:file:" + dir.resolve("checkpoints-indexed")))));
            // on the class path for the architecture rules only: S3 needs a server inside the JVM, which its own
            // module starts for the kit, and the reliability suite runs these scenarios on it
            case "s3" -> List.of();
            default ->
                throw new IllegalStateException("Storage provider '" + provider + "' is on the test class path "
                        + "but " + Backends.class.getName() + " has no test settings for it; add them");
        };
    }

    /** Every backend of every provider found by discovery, in provider-name order. */
    static List<Backend> available() {
        var backends = new ArrayList<Backend>();
        for (PersistenceStorageProviderFactory factory : PersistenceStorageProviders.available()) {
            backends.addAll(of(factory.name()));
        }
        return backends;
    }

    private static ProviderConfig serverDatabase(String url) {
        return ProviderConfig.of(Map.of(
                "agent.persistence.jdbc.url",
                url,
                "agent.persistence.jdbc.table-prefix",
                TABLE_PREFIX,
                "agent.persistence.jdbc.pool-size",
                "4"));
    }
}
