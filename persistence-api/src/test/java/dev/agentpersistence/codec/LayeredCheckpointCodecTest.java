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
            .checkpointId("cp-1")
            .agentId("agent-1")
            .version(3)
            .createdAt(Instant.parse("2026-01-02T03:04:05.123456789Z"))
            .nodeId("n")
            .message(Message.user("hello ünï"))
            .state("s", TextNode.valueOf("x".repeat(100)))
            .build();
    private static final CheckpointLocation WHERE = new CheckpointLocation("agent-1", "cp-1", "row 1");

    @Test
    void everyCombinationOfLayersRoundTripsAndReadsTheOthers() {
        var keys = DocumentLayersTest.ring("k1");
        var codecs = new LayeredCheckpointCodec[] {
            LayeredCheckpointCodec.custom().build(),
            LayeredCheckpointCodec.custom()
                    .layers(DocumentLayers.custom().checksum(true).build())
                    .build(),
            LayeredCheckpointCodec.custom()
                    .layers(DocumentLayers.custom().encryption(keys).build())
                    .build(),
            LayeredCheckpointCodec.custom()
                    .layers(DocumentLayers.custom()
                            .checksum(true)
                            .encryption(keys)
                            .build())
                    .build()
        };
        for (var writer : codecs) {
            byte[] stored = writer.encode(CHECKPOINT);
            assertThat(CheckpointCodec.json().decode(writer.layers().unwrap(stored, WHERE), WHERE))
                    .isEqualTo(CHECKPOINT);
            for (var reader : codecs) {
                if (writer.layers().encrypts() && !reader.layers().encrypts()) {
                    assertThatThrownBy(() -> reader.decode(stored, WHERE))
                            .isInstanceOf(CorruptCheckpointException.class);
                } else {
                    assertThat(reader.decode(stored, WHERE)).isEqualTo(CHECKPOINT);
                }
            }
        }
        assertThat(codecs[0].encode(CHECKPOINT))
                .isEqualTo(CheckpointCodec.json().encode(CHECKPOINT));
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
        assertThat(smaller.decode(exact.encode(CHECKPOINT), WHERE))
                .as("the limit applies to writing only")
                .isEqualTo(CHECKPOINT);
        assertThatThrownBy(() -> LayeredCheckpointCodec.custom().maxDocumentSize(0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** A checkpoint with a conversation-like history of {@code messages} messages of about 200 characters. */
    static AgentCheckpoint conversation(int messages) {
        var builder = CHECKPOINT.toBuilder();
        for (int i = 0; i < messages; i++) {
            String text = DocumentLayersCompressionTest.prose(i, 200);
            builder.message(i % 2 == 0 ? Message.user(text) : Message.assistant(text));
        }
        return builder.build();
    }

    @Test
    void everyCombinationWithCompressionRoundTripsAndReadsTheOthers() {
        var keys = DocumentLayersTest.ring("k1");
        var large = conversation(40);
        var codecs = new java.util.ArrayList<LayeredCheckpointCodec>();
        for (boolean compress : new boolean[] {false, true}) {
            for (boolean checksum : new boolean[] {false, true}) {
                for (boolean encrypt : new boolean[] {false, true}) {
                    var layers = DocumentLayers.custom().compression(compress).checksum(checksum);
                    if (encrypt) {
                        layers.encryption(keys);
                    }
                    codecs.add(LayeredCheckpointCodec.custom()
                            .layers(layers.build())
                            .build());
                }
            }
        }
        int json = CheckpointCodec.json().encode(large).length;
        for (var writer : codecs) {
            for (var checkpoint : new AgentCheckpoint[] {CHECKPOINT, large}) {
                byte[] stored = writer.encode(checkpoint);
                for (var reader : codecs) {
                    if (!writer.layers().encrypts() || reader.layers().encrypts()) {
                        assertThat(reader.decode(stored, WHERE))
                                .as(writer + " read by " + reader)
                                .isEqualTo(checkpoint);
                    }
                }
            }
            int stored = writer.encode(large).length;
            if (writer.layers().compresses()) {
                assertThat(stored).as(writer.toString()).isLessThan(json * 2 / 3);
            } else {
                assertThat(stored).as(writer.toString()).isGreaterThanOrEqualTo(json);
            }
        }
    }

    @Test
    void theLimitAppliesToTheEncodedDocumentEvenWhenItCompressesBelowIt() {
        var large = conversation(40);
        int json = CheckpointCodec.json().encode(large).length;
        var layers = DocumentLayers.custom().compression(true).checksum(true).build();
        int stored = LayeredCheckpointCodec.custom().layers(layers).build().encode(large).length;
        assertThat(stored).isLessThan(json * 2 / 3);

        var underJson = LayeredCheckpointCodec.custom()
                .layers(layers)
                .maxDocumentSize(json - 1)
                .build();
        assertThatThrownBy(() -> underJson.encode(large))
                .isInstanceOfSatisfying(CheckpointTooLargeException.class, e -> {
                    assertThat(e.size()).isEqualTo(json);
                    assertThat(e.limit()).isEqualTo(json - 1);
                });
        var atJson = LayeredCheckpointCodec.custom()
                .layers(layers)
                .maxDocumentSize(json)
                .build();
        byte[] document = atJson.encode(large);
        assertThat(document).hasSize(stored);
        assertThat(atJson.decode(document, WHERE)).isEqualTo(large);

        // Read with a lower limit: the compressed document declares more than it, and is refused unread.
        assertThatThrownBy(() -> underJson.decode(document, WHERE))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("declares " + json + " bytes uncompressed, over the maximum checkpoint size of "
                        + (json - 1) + " bytes")
                .hasMessageContaining("'cp-1' of agent 'agent-1' at row 1");
        assertThat(LayeredCheckpointCodec.custom().build().decode(document, WHERE))
                .isEqualTo(large);
    }

    @Test
    void theLimitStillAppliesToTheStoredBytesWhenTheLayersAddToThem() {
        int json = CheckpointCodec.json().encode(CHECKPOINT).length;
        var codec = LayeredCheckpointCodec.custom()
                .layers(DocumentLayers.custom().compression(true).checksum(true).build())
                .maxDocumentSize(json)
                .build();
        assertThatThrownBy(() -> codec.encode(CHECKPOINT))
                .isInstanceOfSatisfying(CheckpointTooLargeException.class, e -> {
                    assertThat(e.size())
                            .as("too small to compress, plus the checksum header")
                            .isEqualTo(json + 17);
                    assertThat(e.limit()).isEqualTo(json);
                });
    }

    @Test
    void aWrongFormatVersionInsideTheLayersIsStillReported() {
        var codec = LayeredCheckpointCodec.custom()
                .layers(DocumentLayers.custom().checksum(true).build())
                .build();
        String json = new String(CheckpointCodec.json().encode(CHECKPOINT), StandardCharsets.UTF_8)
                .replace("\"formatVersion\":" + JsonCheckpointCodec.FORMAT_VERSION, "\"formatVersion\":99");
        byte[] stored = codec.layers().wrap(json.getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> codec.decode(stored, WHERE))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("format version 99");
    }
}
