package dev.agentpersistence.spring.boot.autoconfigure;

import static dev.agentpersistence.spring.boot.autoconfigure.Contexts.runnerWithOnly;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.history.RetentionSweeper;
import dev.agentpersistence.metrics.StorageMetricNames;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;

/** The scheduled retention sweep: declared only with a policy, running with the context, keeping what it says. */
class RetentionTest {

    @Test
    void withoutAPolicyThereIsNoSweep() {
        runnerWithOnly("inmemory").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(RetentionSweeper.class);
            assertThat(context).doesNotHaveBean(ScheduledRetention.class);
        });
    }

    @Test
    void keepLatestSweepsEveryIntervalAndKeepsTheNewest() {
        runnerWithOnly("inmemory")
                .withPropertyValues(
                        "agent.persistence.retention.keep-latest=2", "AGENT_PERSISTENCE_RETENTION_INTERVAL=1h")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    var scheduled = context.getBean(ScheduledRetention.class);
                    assertThat(scheduled.isRunning())
                            .as("started with the context")
                            .isTrue();
                    assertThat(scheduled.sweeper().policy().keepLatest()).hasValue(2);

                    var persistence = context.getBean(AgentPersistence.class);
                    for (int i = 0; i < 5; i++) {
                        Contexts.saveOne(persistence, "swept");
                    }
                    scheduled.sweeper().sweep();
                    @SuppressWarnings("unchecked")
                    var storage = (PersistenceStorageProvider<CheckpointFilter>)
                            context.getBean(PersistenceStorageProvider.class);
                    assertThat(storage.getCheckpoints("swept", CheckpointFilter.ALL))
                            .hasSize(2);
                });
    }

    @Test
    void withActuatorsMetersAndATimeToLiveTheSweepDeletesExpiredCheckpoints(@TempDir Path dir) throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("expiring.db");
        runnerWithOnly("jdbc")
                .withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class))
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withPropertyValues(
                        "agent.persistence.provider=jdbc",
                        "agent.persistence.jdbc.url=" + url,
                        "agent.persistence.ttl=1ms",
                        "agent.persistence.retention.interval=1h")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Contexts.saveOne(context.getBean(AgentPersistence.class), "expiring");
                    Thread.sleep(20);

                    var report =
                            context.getBean(ScheduledRetention.class).sweeper().sweep();

                    assertThat(report.expiredDeleted())
                            .as("expired checkpoints deleted")
                            .isEqualTo(1);
                    try (var connection = DriverManager.getConnection(url);
                            var rows = connection
                                    .createStatement()
                                    .executeQuery("select count(*) from agent_checkpoints")) {
                        rows.next();
                        assertThat(rows.getInt(1)).as("rows left").isZero();
                    }
                    assertThat(context.getBean(MeterRegistry.class)
                                    .find(StorageMetricNames.CHECKPOINT_SAVE)
                                    .tag(StorageMetricNames.TAG_PROVIDER, "jdbc")
                                    .timer())
                            .as("the provider the sweep ran over is the observed one")
                            .isNotNull();
                });
    }

    @Test
    void maxAgeAloneAlsoDeclaresTheSweepAndStoppingTheContextStopsIt() {
        var stopped = new ScheduledRetention[1];
        runnerWithOnly("inmemory")
                .withPropertyValues("agent.persistence.retention.max-age=30d")
                .run(context -> {
                    stopped[0] = context.getBean(ScheduledRetention.class);
                    assertThat(stopped[0].sweeper().policy().maxAge()).contains(Duration.ofDays(30));
                });
        assertThat(stopped[0].isRunning()).isFalse();
    }
}
