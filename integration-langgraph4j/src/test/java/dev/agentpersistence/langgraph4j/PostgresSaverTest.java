package dev.agentpersistence.langgraph4j;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.tck.TestServices;
import org.junit.jupiter.api.BeforeAll;

/** Against the local PostgreSQL (or {@code AGENT_PERSISTENCE_TEST_POSTGRES_URL}); threads are unique per test. */
class PostgresSaverTest extends SaverContractTest {
    private static String url;

    @BeforeAll
    static void locate() {
        url = TestServices.postgresUrl(null);
    }

    @Override
    public PersistenceStorageProvider<CheckpointFilter> openProvider() {
        return JdbcStorage.builder(JdbcStorageConfig.custom().url(url).build()).build();
    }
}
