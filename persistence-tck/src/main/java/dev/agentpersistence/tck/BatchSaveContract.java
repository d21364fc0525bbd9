package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.SaveResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code saveCheckpoints} stores each checkpoint as {@code saveCheckpoint} would: conflicts are reported per checkpoint
 * and stop nothing else, identical re-saves are idempotent, and everything reads back equal.
 */
abstract class BatchSaveContract extends Contract {

    BatchSaveContract(KitSession session) {
        super(session);
    }

    private static void assertSaved(List<SaveResult> results, List<AgentCheckpoint> batch) {
        assertThat(results).extracting(SaveResult::checkpoint).containsExactlyElementsOf(batch);
        assertThat(results)
                .allSatisfy(result -> assertThat(result.saved())
                        .as("saved: " + result.checkpoint().checkpointId())
                        .isTrue());
    }

    private static void assertConflict(SaveResult result, AgentCheckpoint incoming) {
        assertThat(result.checkpoint()).isEqualTo(incoming);
        assertThat(result.saved()).as("saved").isFalse();
        CheckpointConflictException conflict = result.conflict().orElseThrow();
        assertThat(conflict.agentId()).as("agentId of the conflict").isEqualTo(incoming.agentId());
        assertThat(conflict.checkpointId()).as("checkpointId of the conflict").isEqualTo(incoming.checkpointId());
    }

    @Test
    @DisplayName("an empty batch stores nothing and answers no results")
    void emptyBatch() {
        assertThat(provider().saveCheckpoints(List.of())).isEmpty();
    }

    @Test
    @DisplayName("a batch over several agents, interleaved, stores each agent's checkpoints and they read back equal")
    void severalAgents() {
        List<String> agents = List.of(agent("batch-a"), agent("batch-b"), agent("batch-c"));
        var batch = new ArrayList<AgentCheckpoint>();
        for (int version = 0; version < 4; version++) {
            for (String agent : agents) {
                batch.add(version % 2 == 0 ? Checkpoints.full(agent, version) : Checkpoints.simple(agent, version));
            }
        }
        assertSaved(provider().saveCheckpoints(batch), batch);
        for (String agent : agents) {
            var expected = batch.stream()
                    .filter(checkpoint -> checkpoint.agentId().equals(agent))
                    .toList();
            assertThat(provider().getCheckpoints(agent)).containsExactlyElementsOf(expected);
            assertThat(provider().getLatestCheckpoint(agent)).contains(expected.get(3));
            assertThat(provider()
                            .getCheckpoints(
                                    agent,
                                    CheckpointFilter.builder().nodeId("review").build()))
                    .isEqualTo(provider().getCheckpoints(agent).stream()
                            .filter(checkpoint -> "review".equals(checkpoint.nodeId()))
                            .toList());
        }
    }

    @Test
    @DisplayName("results come in the order given, also when versions are not ascending; reads are ascending")
    void order() {
        String agent = agent("batch-order");
        var batch = List.of(Checkpoints.simple(agent, 2), Checkpoints.full(agent, 0), Checkpoints.simple(agent, 1));
        assertSaved(provider().saveCheckpoints(batch), batch);
        assertThat(versions(provider().getCheckpoints(agent))).containsExactly(0L, 1L, 2L);
    }

    @Test
    @DisplayName("a checkpoint at a stored version with other content is reported as a conflict; the others are stored")
    void conflictAtVersion() {
        String agent = agent("batch-conflict-version");
        var original = Checkpoints.full(agent, 1);
        provider().saveCheckpoint(agent, original);
        var intruder = Checkpoints.simple(agent, 1).toBuilder()
                .checkpointId("intruder")
                .metadata("batch", "intruder")
                .build();
        var v0 = Checkpoints.simple(agent, 0);
        var v2 = Checkpoints.full(agent, 2);
        var results = provider().saveCheckpoints(List.of(v0, intruder, v2));
        assertThat(results).hasSize(3);
        assertThat(results.get(0).saved()).isTrue();
        assertConflict(results.get(1), intruder);
        assertThat(results.get(2).saved()).isTrue();
        assertThat(provider().getCheckpoints(agent)).containsExactly(v0, original, v2);
        assertThat(provider()
                        .getCheckpoints(
                                agent,
                                CheckpointFilter.builder()
                                        .metadata("batch", "intruder")
                                        .build()))
                .as("nothing of the refused checkpoint is stored")
                .isEmpty();
    }

    @Test
    @DisplayName("a stored checkpoint id at another version is reported as a conflict; the others are stored")
    void conflictAtId() {
        String agent = agent("batch-conflict-id");
        var original = Checkpoints.simple(agent, 0);
        provider().saveCheckpoint(agent, original);
        var moved = original.toBuilder().version(1).build();
        var v2 = Checkpoints.simple(agent, 2);
        var results = provider().saveCheckpoints(List.of(moved, v2));
        assertConflict(results.get(0), moved);
        assertThat(results.get(1).saved()).isTrue();
        assertThat(provider().getCheckpoints(agent)).containsExactly(original, v2);
    }

    @Test
    @DisplayName("an identical checkpoint, stored before or earlier in the batch, is an idempotent retry")
    void identicalRetry() {
        String agent = agent("batch-retry");
        var stored = Checkpoints.full(agent, 0);
        provider().saveCheckpoint(agent, stored);
        var v1 = Checkpoints.full(agent, 1);
        var batch = List.of(Checkpoints.full(agent, 0), v1, Checkpoints.full(agent, 1));
        assertSaved(provider().saveCheckpoints(batch), batch);
        assertSaved(provider().saveCheckpoints(batch), batch);
        assertThat(provider().getCheckpoints(agent)).containsExactly(stored, v1);
    }

    @Test
    @DisplayName("two checkpoints of one batch at the same version: the first is stored, the second is a conflict")
    void conflictWithinBatch() {
        String agent = agent("batch-twice");
        var first = Checkpoints.simple(agent, 0);
        var second =
                Checkpoints.full(agent, 0).toBuilder().checkpointId("second").build();
        var results = provider().saveCheckpoints(List.of(first, second));
        assertThat(results.get(0).saved()).isTrue();
        assertConflict(results.get(1), second);
        assertThat(provider().getCheckpoints(agent)).containsExactly(first);
    }

    @Test
    @DisplayName("a large batch with one conflict in the middle stores every other checkpoint")
    void largeBatch() {
        String agent = agent("batch-large");
        var stored = Checkpoints.simple(agent, 300);
        provider().saveCheckpoint(agent, stored);
        var batch = new ArrayList<AgentCheckpoint>();
        for (int version = 0; version < 450; version++) {
            batch.add(
                    version == 300
                            ? Checkpoints.full(agent, 300).toBuilder()
                                    .checkpointId("other-300")
                                    .build()
                            : Checkpoints.simple(agent, version));
        }
        var results = provider().saveCheckpoints(batch);
        assertThat(results).hasSize(450);
        for (int i = 0; i < results.size(); i++) {
            if (i == 300) {
                assertConflict(results.get(i), batch.get(i));
            } else {
                assertThat(results.get(i).saved()).as("saved: version " + i).isTrue();
            }
        }
        var expected = new ArrayList<>(batch);
        expected.set(300, stored);
        assertThat(provider().getCheckpoints(agent)).containsExactlyElementsOf(expected);
    }
}
