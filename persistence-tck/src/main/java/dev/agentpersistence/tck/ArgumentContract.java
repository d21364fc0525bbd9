package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code saveCheckpoint} checks that the checkpoint belongs to the agent it is saved under. */
abstract class ArgumentContract extends Contract {

    ArgumentContract(KitSession session) {
        super(session);
    }

    @Test
    @DisplayName("saving a checkpoint under another agent's id throws IllegalArgumentException and stores nothing")
    void mismatchedAgent() {
        String owner = agent("owner");
        String other = agent("other");
        assertThatThrownBy(() -> provider().saveCheckpoint(other, Checkpoints.simple(owner, 0)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> provider().saveCheckpoint(owner + "/x", Checkpoints.simple(owner, 0)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(provider().getCheckpoints(owner)).isEmpty();
        assertThat(provider().getCheckpoints(other)).isEmpty();
        assertThat(provider().getCheckpoints(owner + "/x")).isEmpty();
    }

    @Test
    @DisplayName("saving a null checkpoint is rejected")
    void nullCheckpoint() {
        String agent = agent("null-checkpoint");
        assertThatThrownBy(() -> provider().saveCheckpoint(agent, null))
                .isInstanceOfAny(NullPointerException.class, IllegalArgumentException.class);
        assertThat(provider().getCheckpoints(agent)).isEmpty();
    }
}
