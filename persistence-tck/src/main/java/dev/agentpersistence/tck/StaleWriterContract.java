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
import java.util.function.BiFunction;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Writers that state the head they read ({@link AgentPersistence#createCheckpointAfter},
 * {@link AgentPersistence#markRunCompletedAfter}) over the provider: of writers that read one head exactly one appends,
 * and a writer whose head was superseded, also by a finished run or by a deletion, is refused with
 * {@link CheckpointConflictException} and stores nothing. The provider's part is
 * {@link PersistenceStorageProvider#saveCheckpointAfter}: its default (read the newest checkpoint, then save) passes
 * the group for a provider that passes {@code Conflicts}; the built-in providers check and store in one step.
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
     * every racer has read. The racer is the smallest custom provider (three methods), so its
     * {@code saveCheckpointAfter} is the interface's default (read the head, then save): all racers pass that check,
     * and only the delegate's conflict rule can tell them apart.
     */
    private AgentPersistence readingRacer(int racer, CyclicBarrier allRead) {
        var storage = new RequiredMethodsProvider<>(storage(racer % 2 == 1)) {
            @Override
            public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
                var latest = super.getLatestCheckpoint(agentId, filter);
                await(allRead);
                return latest;
            }
        };
        return AgentPersistence.builder().storage(storage).build();
    }

    /**
     * Writers that all call the provider's own {@code saveCheckpointAfter} at once: each waits before it until every
     * racer is about to save, so only the provider's compare-and-set on the head can tell them apart.
     */
    private AgentPersistence savingRacer(int racer, CyclicBarrier allReady) {
        var storage = new ForwardingStorageProvider<>(storage(racer % 2 == 1)) {
            @Override
            public void saveCheckpointAfter(
                    String agentId, Optional<AgentCheckpoint> expectedHead, AgentCheckpoint checkpoint) {
                await(allReady);
                super.saveCheckpointAfter(agentId, expectedHead, checkpoint);
            }
        };
        return AgentPersistence.builder().storage(storage).build();
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for the other writers", e);
        } catch (BrokenBarrierException | TimeoutException e) {
            throw new AssertionError("the other writers did not come within 30 s", e);
        }
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
        exactlyOneOf12RacersAppends("stale-race", this::readingRacer);
    }

    @Test
    @DisplayName("of 12 writers that call the provider's saveCheckpointAfter at once after the same head exactly one "
            + "stores its checkpoint")
    void racingConditionalSavesAfterOneHead() {
        exactlyOneOf12RacersAppends("stale-cas", this::savingRacer);
    }

    /** 12 writers built by {@code racer} append after one head: one stores, the others are refused. */
    private void exactlyOneOf12RacersAppends(String name, BiFunction<Integer, CyclicBarrier, AgentPersistence> racer) {
        String agent = agent(name);
        var persistence = persistence(false);
        AgentCheckpoint head = after(persistence, Optional.empty(), agent, "start");

        var barrier = new CyclicBarrier(12);
        var outcomes = Race.run(12, n -> after(racer.apply(n, barrier), Optional.of(head), agent, "r" + n));

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
        var outcomes = Race.run(8, racer -> after(readingRacer(racer, allRead), Optional.empty(), agent, "r" + racer));

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

    @Test
    @DisplayName(
            "a writer whose head was deleted with all of the agent's checkpoints is refused, and the emptied agent "
                    + "stays empty")
    void writerAfterAHeadThatWasDeleted() {
        String agent = agent("stale-deleted");
        var persistence = persistence(false);
        AgentCheckpoint v0 = after(persistence, Optional.empty(), agent, "a");
        AgentCheckpoint v1 = after(persistence, Optional.of(v0), agent, "b");
        assertThat(optional("deleteCheckpoints", () -> provider().deleteCheckpoints(agent)))
                .isEqualTo(2);

        assertThatThrownBy(() -> after(persistence(true), Optional.of(v1), agent, "stale"))
                .isInstanceOf(CheckpointConflictException.class)
                .hasMessageContaining(v1.checkpointId());
        assertThat(provider().getCheckpoints(agent)).isEmpty();
    }

    @Test
    @DisplayName("a writer whose next version was freed by retention is refused: its checkpoint never lands below "
            + "the newest")
    void writerAfterAHeadWhoseSuccessorWasTrimmed() {
        String agent = agent("stale-trimmed");
        var persistence = persistence(false);
        AgentCheckpoint v0 = after(persistence, Optional.empty(), agent, "a");
        AgentCheckpoint v1 = after(persistence, Optional.of(v0), agent, "b");
        AgentCheckpoint v2 = after(persistence, Optional.of(v1), agent, "c");
        // versions 0 and 1 are free again
        assertThat(optional("deleteCheckpointsBefore", () -> provider().deleteCheckpointsBefore(agent, 2)))
                .isEqualTo(2);

        assertThatThrownBy(() -> after(persistence(true), Optional.of(v0), agent, "stale"))
                .isInstanceOf(CheckpointConflictException.class);
        assertThat(provider().getCheckpoints(agent))
                .extracting(AgentCheckpoint::checkpointId)
                .containsExactly(v2.checkpointId());
    }

    @Test
    @DisplayName("saveCheckpointAfter stores after the head it names, does nothing when the same checkpoint is saved "
            + "again, and refuses another checkpoint after that head")
    void providerSavesAfterTheHeadItIsGiven() {
        String agent = agent("stale-provider");
        var storage = provider();
        AgentCheckpoint v0 = Checkpoints.simple(agent, 0);
        storage.saveCheckpointAfter(agent, Optional.empty(), v0);
        AgentCheckpoint v1 = Checkpoints.simple(agent, 1);
        storage.saveCheckpointAfter(agent, Optional.of(v0), v1);
        storage.saveCheckpointAfter(agent, Optional.of(v0), v1); // a repeat, e.g. after a timeout

        AgentCheckpoint other = Checkpoints.simple(agent, 1).toBuilder()
                .checkpointId("other-after-v0")
                .build();
        assertThatThrownBy(() -> storage.saveCheckpointAfter(agent, Optional.of(v0), other))
                .isInstanceOf(CheckpointConflictException.class);
        assertThatThrownBy(() -> storage.saveCheckpointAfter(agent, Optional.empty(), other))
                .isInstanceOf(CheckpointConflictException.class);
        assertThat(storage.getCheckpoints(agent))
                .extracting(AgentCheckpoint::checkpointId)
                .containsExactly(v0.checkpointId(), v1.checkpointId());
    }

    @Test
    @DisplayName("saveCheckpointAfter refuses, storing nothing, a head of another agent and a checkpoint whose version "
            + "is not above its head")
    void providerRefusesAHeadThatCannotPrecedeTheCheckpoint() {
        String agent = agent("stale-arguments");
        var storage = provider();
        AgentCheckpoint v0 = Checkpoints.simple(agent, 0);
        storage.saveCheckpoint(agent, v0);
        AgentCheckpoint elsewhere = Checkpoints.simple(agent("stale-arguments-other"), 0);

        assertThatThrownBy(
                        () -> storage.saveCheckpointAfter(agent, Optional.of(elsewhere), Checkpoints.simple(agent, 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> storage.saveCheckpointAfter(
                        agent,
                        Optional.of(v0),
                        Checkpoints.simple(agent, 0).toBuilder()
                                .checkpointId("same-version")
                                .build()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(storage.getCheckpoints(agent)).containsExactly(v0);
    }
}
