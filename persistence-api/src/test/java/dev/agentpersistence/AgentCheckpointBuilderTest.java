package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class AgentCheckpointBuilderTest {

    @Test
    void aMissingCreatedAtNamesTheBuilderCall() {
        var builder = AgentCheckpoint.builder().checkpointId("c1").agentId("a1");

        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("createdAt is required")
                .hasMessageContaining("call .createdAt(Instant)");
    }

    @Test
    void aMissingCheckpointIdOrAgentIdNamesTheBuilderCall() {
        assertThatThrownBy(() -> AgentCheckpoint.builder()
                        .agentId("a1")
                        .createdAt(Instant.EPOCH)
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("checkpointId is required: call .checkpointId(String)");
        assertThatThrownBy(() -> AgentCheckpoint.builder()
                        .checkpointId("c1")
                        .createdAt(Instant.EPOCH)
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("agentId is required: call .agentId(String)");
    }

    @Test
    void theConstructorSaysWhatCreatedAtIs() {
        assertThatThrownBy(() -> new AgentCheckpoint("c1", "a1", 0, null, null, null, null, null, null, null, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("createdAt must not be null");
    }

    @Test
    void aCompleteBuilderBuilds() {
        var checkpoint = AgentCheckpoint.builder()
                .checkpointId("c1")
                .agentId("a1")
                .createdAt(Instant.EPOCH)
                .build();

        assertThat(checkpoint.createdAt()).isEqualTo(Instant.EPOCH);
    }
}
