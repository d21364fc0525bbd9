package dev.agentpersistence.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointTooLargeException;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LayeredCheckpointCodecTest {
    private static final AgentCheckpoint CHECKPOINT = AgentCheckpoint.builder()
            .checkpointId("cp-1").agentId("agent-1").version(3)
            .createdAt(Instant.parse("2026-01-02T03:04:05.123456789Z"))
            .nodeId("n").message(Message.user("hello ünï")).state("s", TextNode.valueOf("x".repeat(100)))
            .build();
    private static final CheckpointLocation WHERE = new CheckpointLocation("agent-1", "cp-1", "row 1");

    @Test
    void everyCombinationOfLayersRoundTripsAndReadsTheOthers() {
        var keys = DocumentLayersTest.ring("k1");
        var codecs = new LayeredCheckpointCodec[] {
            LayeredCheckpointCodec.custom().build(),
            LayeredCheckpointCodec.custom().layers(DocumentLayers.custom().checksum(true).build()).build(),
            LayeredCheckpointCodec.custom().layers(DocumentLayers.custom().encryption(keys).build()).build(),
            LayeredCheckpointCodec.custom().layers(DocumentLayers.custom().checksum(true).encryption(keys).build()).build()
        };
        for (var writer : codecs) {
            byte[] stored = writer.encode(CHECKPOINT);
            assertThat(CheckpointCodec.json().decode(writer.layers().unwrap(stored, WHERE), WHERE)).isEqualTo(CHECKPOINT);
            for (var reader : codecs) {
                if (writer.layers().encrypts() && !reader.layers().encrypts()) {
                    assertThatThrownBy(() -> reader.decode(stored, WHERE)).isInstanceOf(CorruptCheckpointException.class);
                } else {
                    assertThat(reader.decode(stored, WHERE)).isEqualTo(CHECKPOINT);
                }
            }
        }
        assertThat(codecs[0].encode(CHECKPOINT)).isEqualTo(CheckpointCodec.json().encode(CHECKPOINT));
    }

    @Test
    void aDocumentOverTheLimitIsRefusedNamingAgentCheckpointSizeAndLimit() {
        int size = CheckpointCodec.json().encode(CHECKPOINT).length;
        var exact = LayeredCheckpointCodec.custom().maxDocumentSize(size).build();
        assertThat(exact.encode(CHECKPOINT)).hasSize(size);
        var smaller = LayeredCheckpointCodec.custom().maxDocumentSize(size - 1).build();
        assertThatThrownBy(() -> smaller.encode(CHECKPOINT))
                .isInstanceOfSatisfying(CheckpointTooLargeException.class, e -> {
                    assertThat(e.agentId()).isEqualTo("agent-1");
                    assertThat(e.checkpointId()).isEqualTo("cp-1");
                    assertThat(e.size()).isEqualTo(size);
                    assertThat(e.limit()).isEqualTo(size - 1);
                })
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("'cp-1' of agent 'agent-1' is " + size + " bytes")
                .hasMessageContaining("maximum checkpoint size of " + (size - 1) + " bytes");
        assertThat(smaller.decode(exact.encode(CHECKPOINT), WHERE)).as("the limit applies to writing only")
                .isEqualTo(CHECKPOINT);
        assertThatThrownBy(() -> LayeredCheckpointCodec.custom().maxDocumentSize(0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aWrongFormatVersionInsideTheLayersIsStillReported() {
        var codec = LayeredCheckpointCodec.custom().layers(DocumentLayers.custom().checksum(true).build()).build();
        String json = new String(CheckpointCodec.json().encode(CHECKPOINT), StandardCharsets.UTF_8)
                .replace("\"formatVersion\":1", "\"formatVersion\":99");
        byte[] stored = codec.layers().wrap(json.getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> codec.decode(stored, WHERE)).isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("format version 99");
    }
}
