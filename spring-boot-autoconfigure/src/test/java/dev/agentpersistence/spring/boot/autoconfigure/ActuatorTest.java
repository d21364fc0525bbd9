package dev.agentpersistence.spring.boot.autoconfigure;

import static dev.agentpersistence.spring.boot.autoconfigure.Contexts.runner;
import static dev.agentpersistence.spring.boot.autoconfigure.Contexts.runnerWithOnly;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.tck.TestServices;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;

class ActuatorTest {

    @Test
    void healthIsUpWhenTheStoreAnswers() {
        runnerWithOnly("inmemory").run(context -> {
            Health health = context.getBean("agentPersistenceHealthIndicator", HealthIndicator.class)
                    .health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("provider", "inmemory");
        });
    }

    @Test
    void healthIsDownWithTheMessageWhenCheckHealthThrows() {
        var unreachable = new JdbcDataSource();
        unreachable.setURL("jdbc:h2:tcp://127.0.0.1:1/nothing");
        unreachable.setUser("sa");
        unreachable.setPassword("hunter2");
        runnerWithOnly("jdbc").withBean(DataSource.class, () -> unreachable).run(context -> {
            Health health =
                    context.getBean(AgentPersistenceHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("provider", "jdbc");
            assertThat((String) health.getDetails().get("error"))
                    .contains(StorageUnavailableException.class.getName())
                    .doesNotContain("hunter2");
        });
    }

    @Test
    void healthIsDownWithoutThePasswordWhenAProviderOfItsOwnFails() {
        var failing = new Unanswering(() -> {
            throw new IllegalStateException("cannot reach redis://admin:hunter2@cache:6379");
        });
        var health = new AgentPersistenceHealthIndicator(failing, Duration.ofSeconds(2)).health();
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat((String) health.getDetails().get("error"))
                .contains("cache:6379")
                .doesNotContain("hunter2");
    }

    @Test
    void aStoreThatFailsAfterTheTimeoutIsReportedWithItsCauseNotOnlyTheWait() throws Exception {
        var calls = new java.util.concurrent.atomic.AtomicInteger();
        var refusing = new Unanswering(() -> {
            calls.incrementAndGet();
            try {
                Thread.sleep(600); // like a pool waiting its connection timeout before giving up
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new StorageUnavailableException(
                    "Connection to 127.0.0.1:5432 refused", new java.net.ConnectException("Connection refused"));
        });
        var indicator = new AgentPersistenceHealthIndicator(refusing, Duration.ofMillis(200));
        assertThat((String) indicator.health().getDetails().get("error")).startsWith("no answer within");
        assertThat((String) indicator.health().getDetails().get("error"))
                .as("a check still running is waited for again, not started twice")
                .startsWith("no answer within");
        assertThat(calls).hasValue(1);
        Thread.sleep(600);
        Health health = indicator.health();
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat((String) health.getDetails().get("error"))
                .contains("the last check failed with", "Connection to 127.0.0.1:5432 refused");
    }

    @Test
    void healthIsDownWhenTheStoreDoesNotAnswerWithinTheTimeout() {
        var hanging = new Unanswering(() -> {
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        runnerWithOnly()
                .withBean(PersistenceStorageProvider.class, () -> hanging)
                .withPropertyValues("agent.persistence.health.timeout=100ms")
                .run(context -> {
                    long start = System.nanoTime();
                    Health health = context.getBean(AgentPersistenceHealthIndicator.class)
                            .health();
                    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(health.getDetails()).containsEntry("error", "no answer within 100ms");
                });
    }

    @Test
    @SuppressWarnings("unchecked")
    void infoTellsTheProviderAndItsLayers() {
        runnerWithOnly("inmemory").run(context -> {
            var builder = new Info.Builder();
            context.getBean(AgentPersistenceInfoContributor.class).contribute(builder);
            var details = (Map<String, Object>) builder.build().getDetails().get("agentPersistence");
            assertThat(details)
                    .containsEntry("provider", "inmemory")
                    .containsEntry("providerClass", "dev.agentpersistence.storage.StorageShell")
                    .containsEntry("incrementalHistory", true)
                    .containsEntry("layers", Map.of("compression", true, "checksum", true, "encryption", false))
                    .containsEntry("store", "the heap of this JVM");
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void healthAndInfoNameTheDatabaseKindAndItsUrlWithoutThePassword() {
        String url = TestServices.postgresUrl(null);
        String withPassword = url + (url.contains("?") ? "&" : "?") + "password=s3cr3t-pw";
        runnerWithOnly("jdbc")
                .withPropertyValues(
                        "agent.persistence.jdbc.url=" + withPassword, "agent.persistence.jdbc.table-prefix=health_")
                .run(context -> {
                    Health health = context.getBean(AgentPersistenceHealthIndicator.class)
                            .health();
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat((String) health.getDetails().get("store"))
                            .startsWith("PostgreSQL (table health_checkpoints) at jdbc:postgresql://")
                            .doesNotContain("s3cr3t-pw");
                    var builder = new Info.Builder();
                    context.getBean(AgentPersistenceInfoContributor.class).contribute(builder);
                    var details =
                            (Map<String, Object>) builder.build().getDetails().get("agentPersistence");
                    assertThat((String) details.get("store"))
                            .startsWith("PostgreSQL (table health_checkpoints) at jdbc:postgresql://")
                            .doesNotContain("s3cr3t-pw");
                });
    }

    @Test
    void withoutActuatorThereIsNoHealthIndicatorOrInfoContributor() {
        runner().withPropertyValues("agent.persistence.provider=inmemory")
                .withClassLoader(new FilteredClassLoader(HealthIndicator.class, InfoContributor.class))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(AgentPersistenceHealthIndicator.class);
                    assertThat(context).doesNotHaveBean(AgentPersistenceInfoContributor.class);
                });
    }

    /** A provider of its own whose reads run {@code read}. */
    private record Unanswering(Runnable read) implements PersistenceStorageProvider<CheckpointFilter> {
        @Override
        public java.util.List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
            read.run();
            return java.util.List.of();
        }

        @Override
        public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {}

        @Override
        public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
            read.run();
            return Optional.empty();
        }
    }
}
