package dev.agentpersistence.tck;

import static dev.agentpersistence.tck.Checkpoints.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A save never overwrites different content; an identical re-save is a no-op. */
abstract class ConflictContract extends Contract {

    ConflictContract(KitSession session) {
        super(session);
    }

    private void assertConflict(String agent, AgentCheckpoint incoming) {
        assertThatThrownBy(() -> provider().saveCheckpoint(agent, incoming))
                .isInstanceOf(CheckpointConflictException.class)
                .satisfies(e -> {
                    var conflict = (CheckpointConflictException) e;
                    assertThat(conflict.agentId()).as("agentId of the conflict").isEqualTo(agent);
                    assertThat(conflict.checkpointId())
                            .as("checkpointId of the conflict")
                            .isEqualTo(incoming.checkpointId());
                });
    }

    @Test
    @DisplayName(
            "saving other content at an existing version throws CheckpointConflictException and keeps the original")
    void sameVersionOtherContent() {
        String agent = agent("conflict-version");
        var original = Checkpoints.full(agent, 1);
        provider().saveCheckpoint(agent, original);
        var intruder = Checkpoints.simple(agent, 1).toBuilder()
                .checkpointId("intruder")
                .build();
        assertConflict(agent, intruder);
        assertThat(provider().getCheckpoints(agent)).containsExactly(original);
        assertThat(provider().getLatestCheckpoint(agent)).contains(original);
    }

    @Test
    @DisplayName(
            "saving an existing checkpoint id at another version throws CheckpointConflictException and stores nothing")
    void sameIdOtherVersion() {
        String agent = agent("conflict-id");
        var original = Checkpoints.simple(agent, 0);
        provider().saveCheckpoint(agent, original);
        var moved = original.toBuilder().version(1).build();
        assertConflict(agent, moved);
        assertThat(provider().getCheckpoints(agent)).containsExactly(original);
    }

    @Test
    @DisplayName("a checkpoint that differs only slightly (1 ns, one state value, one metadata entry, one message) "
            + "conflicts")
    void smallDifferences() {
        String agent = agent("conflict-small");
        var original = Checkpoints.full(agent, 0);
        provider().saveCheckpoint(agent, original);
        assertConflict(
                agent,
                original.toBuilder()
                        .createdAt(original.createdAt().plusNanos(1))
                        .build());
        assertConflict(agent, original.toBuilder().state("count", json("43")).build());
        assertConflict(
                agent,
                original.toBuilder()
                        .state("outline", json("{\"title\":\"Quarterly report\"}"))
                        .build());
        assertConflict(agent, original.toBuilder().metadata("phase", "final").build());
        assertConflict(
                agent,
                original.toBuilder()
                        .messageHistory(original.messageHistory().subList(0, 5))
                        .build());
        assertConflict(agent, original.toBuilder().lastInput(null).build());
        assertConflict(agent, original.toBuilder().nodeId(null).build());
        assertThat(provider().getCheckpoints(agent)).containsExactly(original);
    }

    @Test
    @DisplayName("re-saving an identical checkpoint is a no-op and leaves exactly one checkpoint")
    void identicalResave() {
        String agent = agent("resave");
        var original = Checkpoints.full(agent, 2);
        provider().saveCheckpoint(agent, original);
        provider().saveCheckpoint(agent, original);
        provider().saveCheckpoint(agent, Checkpoints.full(agent, 2));
        assertThat(provider().getCheckpoints(agent)).containsExactly(original);
        var readBack = provider().getCheckpoints(agent).get(0);
        provider().saveCheckpoint(agent, readBack);
        assertThat(provider().getCheckpoints(agent)).containsExactly(original);
    }

    @Test
    @DisplayName("a conflicting save does not disturb later saves")
    void conflictLeavesProviderUsable() {
        String agent = agent("conflict-then-save");
        var v0 = Checkpoints.simple(agent, 0);
        provider().saveCheckpoint(agent, v0);
        assertConflict(agent, Checkpoints.full(agent, 0));
        var v1 = Checkpoints.full(agent, 1);
        provider().saveCheckpoint(agent, v1);
        assertThat(provider().getCheckpoints(agent)).containsExactlyElementsOf(List.of(v0, v1));
    }
}
