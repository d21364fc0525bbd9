package dev.agentpersistence.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.TestServices;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;

/**
 * The starter in an application whose {@code DataSource} Spring Boot builds from {@code spring.datasource.url}, against
 * a real PostgreSQL ({@link TestServices#postgresUrl}: skipped when there is none, failing instead when services are
 * required).
 */
class PostgresServiceTest {

    @Test
    void savesAndReadsThroughTheApplicationsDataSourceAndReportsUp() {
        String url = TestServices.postgresUrl(null);
        Contexts.runner()
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
                .withPropertyValues(
                        "spring.datasource.url=" + url,
                        "agent.persistence.provider=jdbc",
                        "agent.persistence.jdbc.table-prefix=boot_starter_")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(DataSource.class);
                    assertThat(AgentPersistenceAutoConfigurationTest.storage(context))
                            .isInstanceOf(StorageShell.class);
                    var persistence = context.getBean(AgentPersistence.class);
                    String agentId = "boot-postgres-" + System.nanoTime();
                    var saved = Contexts.saveOne(persistence, agentId);
                    assertThat(persistence.latestCheckpoint(agentId)).contains(saved);
                    assertThat(context.getBean(AgentPersistenceHealthIndicator.class)
                                    .health()
                                    .getStatus())
                            .isEqualTo(Status.UP);
                    persistence.storage().deleteCheckpoints(agentId);
                });
    }
}
