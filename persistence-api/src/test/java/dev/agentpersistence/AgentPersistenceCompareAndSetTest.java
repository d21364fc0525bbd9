package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * {@link AgentPersistence#createCheckpointAfter} and {@link AgentPersistence#markRunCompletedAfter}: a save right after
 * the head the caller read, or nothing.
 */
class AgentPersistenceCompareAndSetTest {
    private final HeapTestStorage storage = new HeapTestStorage();
    private final AgentPersistence persistence =
            AgentPersistence.builder().storage(storage).build();

    private AgentCheckpoint saveAfter(Optional<AgentCheckpoint> head, String node) {
        return persistence.createCheckpointAfter(head, new SimpleAgentContext("a"), node, null, null, Map.of());
    }

    @Test
    void eachSaveIsTheVersionRightAfterTheExpectedHeadWithItAsParent() {
        AgentCheckpoint first = saveAfter(Optional.empty(), "one");
        AgentCheckpoint second = saveAfter(Optional.of(first), "two");
        AgentCheckpoint tombstone = persistence.markRunCompletedAfter(second, new SimpleAgentContext("a"));

        assertThat(first.version()).isZero();
        assertThat(first.parentCheckpointId()).isNull();
        assertThat(second.version()).isEqualTo(1);
        assertThat(second.parentCheckpointId()).isEqualTo(first.checkpointId());
        assertThat(tombstone.isTombstone()).isTrue();
        assertThat(tombstone.version()).isEqualTo(2);
        assertThat(tombstone.parentCheckpointId()).isEqualTo(second.checkpointId());
        assertThat(storage.getCheckpoints("a")).containsExactly(first, second, tombstone);
    }

    @Test
    void aStaleHeadIsRefusedOnceWithoutRetryAndNothingIsStored() {
        AgentCheckpoint first = saveAfter(Optional.empty(), "one");
        AgentCheckpoint second = saveAfter(Optional.of(first), "two");
        List<AgentCheckpoint> before = storage.getCheckpoints("a");
        int saves = storage.saveCalls();

        assertThatThrownBy(() -> saveAfter(Optional.of(first), "stale"))
                .isInstanceOf(CheckpointConflictException.class)
                .hasMessageContaining("is no longer at version 0")
                .hasMessageContaining("nothing was saved");
        assertThatThrownBy(() -> saveAfter(Optional.empty(), "as if new"))
                .isInstanceOf(CheckpointConflictException.class)
                .hasMessageContaining("no longer at no checkpoint");
        assertThatThrownBy(() -> persistence.markRunCompletedAfter(first, new SimpleAgentContext("a")))
                .isInstanceOf(CheckpointConflictException.class);

        assertThat(storage.saveCalls())
                .as("at most one save per call, never retried")
                .isLessThanOrEqualTo(saves + 3);
        assertThat(storage.getCheckpoints("a")).isEqualTo(before);
        assertThat(saveAfter(Optional.of(second), "three").version())
                .as("the writer that read the real head goes on")
                .isEqualTo(2);
    }

    @Test
    void aWriterThatSavesBetweenTheReadAndTheSaveWinsAndTheLaterSaveStoresNothing() {
        AgentCheckpoint head = saveAfter(Optional.empty(), "one");
        var other = AgentPersistence.builder().storage(storage).build();
        var once = new AtomicBoolean(true);
        storage.beforeSave(cp -> {
            if (once.getAndSet(false)) {
                other.createCheckpoint(new SimpleAgentContext("a"), "other writer", null, null);
            }
        });
        int saves = storage.saveCalls();

        assertThatThrownBy(() -> saveAfter(Optional.of(head), "late"))
                .isInstanceOf(CheckpointConflictException.class)
                .hasMessageContaining("version 1 is already stored");

        assertThat(storage.saveCalls())
                .as("the refused save and the other writer's, no retry")
                .isEqualTo(saves + 2);
        assertThat(storage.getCheckpoints("a"))
                .extracting(AgentCheckpoint::nodeId)
                .containsExactly("one", "other writer");
    }

    @Test
    void aHeadOfAnotherAgentIsAnArgumentErrorAndStoresNothing() {
        AgentCheckpoint ofB = persistence.createCheckpointAfter(
                Optional.empty(), new SimpleAgentContext("b"), "b", null, null, Map.of());

        assertThatThrownBy(() -> saveAfter(Optional.of(ofB), "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is a checkpoint of agent 'b', not of 'a'");
        assertThatThrownBy(() -> persistence.markRunCompletedAfter(ofB, new SimpleAgentContext("a")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(storage.getCheckpoints("a")).isEmpty();
    }

    @Test
    void aFacadeWithoutNamespaceRefusesCompareAndSetWritesToReservedIds() {
        for (String id : List.of("@run/x", "@journal/x", "__journal__/x")) {
            assertThatThrownBy(() -> persistence.createCheckpointAfter(
                            Optional.empty(), new SimpleAgentContext(id), "n", null, null, Map.of()))
                    .as(id)
                    .isInstanceOf(InvalidIdentifierException.class)
                    .hasMessageContaining("reserved");
            assertThatThrownBy(() -> persistence.markRunCompleted(new SimpleAgentContext(id)))
                    .as(id)
                    .isInstanceOf(InvalidIdentifierException.class);
            assertThat(storage.getCheckpoints(id)).isEmpty();
        }
    }
}
