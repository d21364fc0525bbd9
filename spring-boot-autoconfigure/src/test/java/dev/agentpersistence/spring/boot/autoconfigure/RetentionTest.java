package dev.agentpersistence.spring.boot.autoconfigure;

import static dev.agentpersistence.spring.boot.autoconfigure.Contexts.runnerWithOnly;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.history.RetentionSweeper;
import java.time.Duration;
import org.junit.jupiter.api.Test;

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
