package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.SimpleAgentContext;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Writers that state the head they read ({@link AgentPersistence#createCheckpointAfter},
 * {@link AgentPersistence#markRunCompletedAfter}) over the provider: of writers that read one head exactly one appends,
 * and a writer whose head was superseded, also by a finished run, is refused with {@link CheckpointConflictException}
 * and stores nothing. The provider's part is the conflict rule every save already follows (a version is taken once), so
 * a provider that passes {@code Conflicts} passes this group.
 */
abstract class StaleWriterContract extends Contract {

    StaleWriterContract(KitSession session) {
        super(session);
    }

    private AgentPersistence persistence(boolean otherInstance) {
        return AgentPersistence.builder().storage(storage(otherInstance)).build();
    }

    private PersistenceStorageProvider<CheckpointFilter> storage(boolean otherInstance) {
        return otherInstance && sharesStorage() ? newProvider() : provider();
    }

    /**
     * Writers whose reads of the newest checkpoint all return before any of them saves: each waits after its read until
     * every racer has read, so all of them pass the facade's own check of the head and only the provider's conflict
     * rule can tell them apart.
     */
    private AgentPersistence racer(int racer, CyclicBarrier allRead) {
        var storage = new ForwardingStorageProvider<>(storage(racer % 2 == 1)) {
            @Override
            public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
                var latest = super.getLatestCheckpoint(agentId, filter);
                try {
                    allRead.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted while waiting for the other writers' reads", e);
                } catch (BrokenBarrierException | TimeoutException e) {
                    throw new AssertionError("the other writers did not read the head within 30 s", e);
                }
                return latest;
            }
        };
        return AgentPersistence.builder().storage(storage).build();
    }

    private static SimpleAgentContext context(String agent, String text) {
        return new SimpleAgentContext(agent).append(Message.user(text));
    }

    private static AgentCheckpoint after(
            AgentPersistence persistence, Optional<AgentCheckpoint> head, String agent, String text) {
        return persistence.createCheckpointAfter(head, context(agent, text), "node", null, null, Map.of());
    }

    @Test
    @DisplayName("of 12 writers that all read the same head before any saves exactly one stores its checkpoint; the "
            + "others are refused with CheckpointConflictException")
    void racingWritersAfterOneHead() {
        String agent = agent("stale-race");
        var persistence = persistence(false);
        AgentCheckpoint head = after(persistence, Optional.empty(), agent, "start");

        var allRead = new CyclicBarrier(12);
        var outcomes = Race.run(12, racer -> after(racer(racer, allRead), Optional.of(head), agent, "r" + racer));

        assertThat(outcomes).filteredOn(Race.Outcome::succeeded).hasSize(1);
        assertThat(outcomes)
                .filteredOn(outcome -> !outcome.succeeded())
                .allSatisfy(outcome -> assertThat(outcome.failure())
                        .isInstanceOf(CheckpointConflictException.class)
                        .satisfies(e -> assertThat(((CheckpointConflictException) e).agentId())
                                .isEqualTo(agent)));
        var stored = provider().getCheckpoints(agent);
        assertThat(versions(stored)).containsExactly(0L, 1L);
        assertThat(stored.get(1).parentCheckpointId()).isEqualTo(head.checkpointId());
    }

    @Test
    @DisplayName("a writer that read a head before another finished the run is refused, for a checkpoint and for a "
            + "tombstone, and nothing is appended after the finished run")
    void staleResumerAfterAFinishedRun() {
        String agent = agent("stale-resumer");
        var first = persistence(false);
        var second = persistence(true);
        AgentCheckpoint waiting = after(first, Optional.empty(), agent, "waiting");
        AgentCheckpoint readByB = second.latestCheckpoint(agent).orElseThrow();

        AgentCheckpoint answered = after(first, Optional.of(waiting), agent, "yes");
        AgentCheckpoint finished = first.markRunCompletedAfter(answered, context(agent, "done"));

        assertThatThrownBy(() -> after(second, Optional.of(readByB), agent, "no"))
                .isInstanceOf(CheckpointConflictException.class);
        assertThatThrownBy(() -> second.markRunCompletedAfter(readByB, context(agent, "done")))
                .isInstanceOf(CheckpointConflictException.class);
        var stored = provider().getCheckpoints(agent);
        assertThat(stored)
                .extracting(AgentCheckpoint::checkpointId)
                .containsExactly(waiting.checkpointId(), answered.checkpointId(), finished.checkpointId());
        assertThat(provider().getLatestCheckpoint(agent))
                .map(AgentCheckpoint::isTombstone)
                .contains(true);
    }

    @Test
    @DisplayName("a writer two heads behind is refused although the version after its head is the only one it "
            + "could collide with")
    void writerTwoHeadsBehind() {
        String agent = agent("stale-behind");
        var persistence = persistence(false);
        AgentCheckpoint v0 = after(persistence, Optional.empty(), agent, "a");
        AgentCheckpoint v1 = after(persistence, Optional.of(v0), agent, "b");
        after(persistence, Optional.of(v1), agent, "c");

        assertThatThrownBy(() -> after(persistence(true), Optional.of(v1), agent, "stale"))
                .isInstanceOf(CheckpointConflictException.class);
        assertThat(versions(provider().getCheckpoints(agent))).containsExactly(0L, 1L, 2L);
    }

    @Test
    @DisplayName("of 8 writers of a new agent that all read it empty one wins; a writer expecting a new agent is "
            + "refused once the agent has a checkpoint")
    void writersExpectingANewAgent() {
        String agent = agent("stale-new");
        var allRead = new CyclicBarrier(8);
        var outcomes = Race.run(8, racer -> after(racer(racer, allRead), Optional.empty(), agent, "r" + racer));

        assertThat(outcomes).filteredOn(Race.Outcome::succeeded).hasSize(1);
        assertThat(outcomes)
                .filteredOn(outcome -> !outcome.succeeded())
                .extracting(Race.Outcome::failure)
                .allSatisfy(failure -> assertThat(failure).isInstanceOf(CheckpointConflictException.class));
        List<AgentCheckpoint> stored = provider().getCheckpoints(agent);
        assertThat(versions(stored)).containsExactly(0L);
        assertThatThrownBy(() -> after(persistence(false), Optional.empty(), agent, "late"))
                .isInstanceOf(CheckpointConflictException.class);
        assertThat(provider().getCheckpoints(agent)).isEqualTo(stored);
    }
}
