package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code getCheckpoint} finds a checkpoint by id, and only in its own agent. */
abstract class LookupContract extends Contract {

    LookupContract(KitSession session) {
        super(session);
    }

    @Test
    @DisplayName("getCheckpoint returns the checkpoint saved under that id")
    void present() {
        String agent = agent("lookup");
        var first = Checkpoints.full(agent, 0);
        var second = Checkpoints.full(agent, 1);
        var third = Checkpoints.simple(agent, 2);
        saveAll(agent, List.of(second, third, first));
        assertThat(optional("getCheckpoint", () -> provider().getCheckpoint(agent, "full-0"))).contains(first);
        assertThat(optional("getCheckpoint", () -> provider().getCheckpoint(agent, "full-1"))).contains(second);
        assertThat(optional("getCheckpoint", () -> provider().getCheckpoint(agent, "cp-2"))).contains(third);
    }

    @Test
    @DisplayName("getCheckpoint of an unknown id, or of an agent without checkpoints, is empty")
    void absent() {
        String agent = agent("lookup-absent");
        provider().saveCheckpoint(agent, Checkpoints.simple(agent, 0));
        assertThat(optional("getCheckpoint", () -> provider().getCheckpoint(agent, "cp-1"))).isEmpty();
        assertThat(optional("getCheckpoint", () -> provider().getCheckpoint(agent, "CP-0"))).as("ids are case-sensitive")
                .isEmpty();
        assertThat(optional("getCheckpoint", () -> provider().getCheckpoint(agent, "cp-"))).as("no prefix match").isEmpty();
        assertThat(optional("getCheckpoint", () -> provider().getCheckpoint(agent("lookup-nobody"), "cp-0"))).isEmpty();
    }

    @Test
    @DisplayName("getCheckpoint does not find another agent's checkpoint")
    void otherAgent() {
        String owner = agent("lookup-owner");
        String other = agent("lookup-other");
        provider().saveCheckpoint(owner, Checkpoints.simple(owner, 0).toBuilder().checkpointId("only-owner").build());
        provider().saveCheckpoint(other, Checkpoints.simple(other, 0));
        assertThat(optional("getCheckpoint", () -> provider().getCheckpoint(other, "only-owner"))).isEmpty();
        assertThat(optional("getCheckpoint", () -> provider().getCheckpoint(owner, "only-owner"))).isPresent();
    }
}
