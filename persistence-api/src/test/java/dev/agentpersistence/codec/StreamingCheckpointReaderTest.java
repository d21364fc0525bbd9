package dev.agentpersistence.codec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.Message;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The streaming fast path reads what the codec writes exactly as the tree path does, and leaves everything else to it.
 */
class StreamingCheckpointReaderTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final JsonCheckpointCodec CODEC = JsonCheckpointCodec.instance();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static List<AgentCheckpoint> checkpoints() {
        var full = JsonCheckpointCodecTest.full();
        return List.of(
                full,
                AgentCheckpoint.builder()
                        .checkpointId("c")
                        .agentId("a")
                        .createdAt(Instant.EPOCH)
                        .build(),
                full.toBuilder().lastInput(JSON.nullNode()).build(),
                full.toBuilder()
                        .lastInput(null)
                        .nodeId(null)
                        .lastInputType(null)
                        .parentCheckpointId(null)
                        .build(),
                AgentCheckpoint.tombstone("a", 9, Instant.parse("2026-11-26T00:00:00Z")),
                full.toBuilder()
                        .state("decimal", JSON.numberNode(new BigDecimal("0.1000000000000000055511151231257827")))
                        .state("double", JSON.numberNode(2.5))
                        .state("huge", JSON.numberNode(new java.math.BigInteger("123456789012345678901234567890")))
                        .state("array", JSON.arrayNode().add(1).add(1.5).addNull())
                        .message(Message.user(List.of(
                                        ContentPart.text("look"),
                                        ContentPart.bytes(
                                                ContentPart.MediaKind.IMAGE, new byte[] {1, 2, 3}, "image/png"),
                                        ContentPart.url(ContentPart.MediaKind.FILE, "https://example.com/a.pdf", null)
                                                .withName("a.pdf")))
                                .withId("m-parts"))
                        .build());
    }

    @Test
    void theFastPathReadsEveryDocumentTheCodecWritesAsTheTreePathDoes() {
        for (AgentCheckpoint checkpoint : checkpoints()) {
            byte[] document = CODEC.encode(checkpoint);
            var where = new CheckpointLocation(checkpoint.agentId(), checkpoint.checkpointId(), "test");
            assertThat(CODEC.decodeStreaming(document))
                    .as("taken by the fast path")
                    .hasValue(checkpoint);
            assertThat(CODEC.readTree(document, where)).isEqualTo(checkpoint);
            assertThat(CODEC.decode(document, where)).isEqualTo(checkpoint);
        }
    }

    @Test
    void documentsOfOtherShapesAreLeftToTheTreePathWhichStillReadsThem() throws Exception {
        var checkpoint = JsonCheckpointCodecTest.full();
        var where = new CheckpointLocation(checkpoint.agentId(), checkpoint.checkpointId(), "test");
        byte[] formatOne = JsonCheckpointCodec.writingFormat(1)
                .encode(checkpoint.toBuilder()
                        .messageHistory(List.of(Message.user("hi")))
                        .build());
        assertThat(CODEC.decodeStreaming(formatOne)).as("format 1").isEmpty();
        assertThat(CODEC.decode(formatOne, where).messageHistory()).hasSize(1);

        byte[] reordered = altered(checkpoint, doc -> {
            var format = doc.remove("formatVersion");
            doc.set("formatVersion", format);
        });
        assertThat(CODEC.decodeStreaming(reordered)).as("formatVersion last").isEmpty();
        assertThat(CODEC.decode(reordered, where)).isEqualTo(checkpoint);

        byte[] unknownMessageField = altered(
                checkpoint, doc -> ((ObjectNode) doc.path("messageHistory").get(0)).put("future", 1));
        assertThat(CODEC.decodeStreaming(unknownMessageField)).isEmpty();
        assertThat(CODEC.decode(unknownMessageField, where)).isEqualTo(checkpoint);

        String text = new String(CODEC.encode(checkpoint), StandardCharsets.UTF_8);
        byte[] duplicate = text.replaceFirst("\"agentId\":", "\"nodeId\":\"first\",\"agentId\":")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(CODEC.decodeStreaming(duplicate)).as("a field twice").isEmpty();
        assertThat(CODEC.decode(duplicate, where))
                .as("the tree path: the last one wins")
                .isEqualTo(checkpoint);

        byte[] duplicateInMessage = text.replaceFirst("\"role\":\"SYSTEM\"", "\"role\":\"USER\",\"role\":\"SYSTEM\"")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(CODEC.decodeStreaming(duplicateInMessage)).isEmpty();
        assertThat(CODEC.decode(duplicateInMessage, where)).isEqualTo(checkpoint);

        assertThat(CODEC.decodeStreaming((text + " {}").getBytes(StandardCharsets.UTF_8)))
                .as("trailing value")
                .isEmpty();
        assertThat(CODEC.decodeStreaming(altered(checkpoint, doc -> doc.put("version", "three"))))
                .isEmpty();
        assertThat(CODEC.decodeStreaming(altered(checkpoint, doc -> doc.put("nodeId", 5))))
                .isEmpty();
        assertThat(CODEC.decodeStreaming(text.substring(0, text.length() / 2).getBytes(StandardCharsets.UTF_8)))
                .as("truncated")
                .isEmpty();
    }

    private static byte[] altered(AgentCheckpoint checkpoint, Consumer<ObjectNode> change) throws Exception {
        ObjectNode doc = (ObjectNode) MAPPER.readTree(CODEC.encode(checkpoint));
        change.accept(doc);
        return MAPPER.writeValueAsBytes(doc);
    }
}
