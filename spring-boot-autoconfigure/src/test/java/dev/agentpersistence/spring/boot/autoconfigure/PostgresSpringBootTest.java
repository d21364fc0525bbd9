package dev.agentpersistence.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.TestServices;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A whole Spring Boot application (every auto-configuration on the test class path) whose {@code DataSource} points at
 * a real PostgreSQL ({@link TestServices#postgresUrl}: skipped when there is none, failing instead when services are
 * required): the starter stores through that pool.
 */
@SpringBootTest(
        classes = PostgresSpringBootTest.Application.class,
        properties = {"agent.persistence.provider=jdbc", "agent.persistence.jdbc.table-prefix=boot_app_"})
class PostgresSpringBootTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {}

    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> TestServices.postgresUrl(null));
    }

    @Autowired
    AgentPersistence persistence;

    @Autowired
    DataSource dataSource;

    @Autowired
    PersistenceStorageProvider<?> storage;

    @Autowired
    AgentPersistenceHealthIndicator health;

    @Test
    void theApplicationStoresThroughItsDataSourceAndReportsUp() throws Exception {
        assertThat(storage).isInstanceOf(StorageShell.class);
        try (var connection = dataSource.getConnection()) {
            assertThat(connection.getMetaData().getDatabaseProductName()).isEqualTo("PostgreSQL");
        }
        String agentId = "boot-app-postgres-" + System.nanoTime();
        var saved = Contexts.saveOne(persistence, agentId);
        assertThat(persistence.latestCheckpoint(agentId)).contains(saved);
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);
        persistence.storage().deleteCheckpoints(agentId);
    }
}
