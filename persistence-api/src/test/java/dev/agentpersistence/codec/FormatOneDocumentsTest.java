package dev.agentpersistence.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.Message;
import dev.agentpersistence.ToolCall;
import dev.agentpersistence.internal.CheckpointContent;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageSettings;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Documents of format 1, as releases before message ids wrote them, read unchanged: every message gets an id derived
 * from its place and content, the same on every read; format 1 can still be written on request (rolling upgrades),
 * without ids and never with content parts.
 */
class FormatOneDocumentsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A document exactly as the format 1 codec wrote it. */
    private static final String FORMAT_1 = "{\"formatVersion\":1,\"checkpointId\":\"cp-7\",\"agentId\":\"writer\","
            + "\"version\":7,\"createdAt\":\"2026-01-02T03:04:05.123456789Z\",\"nodeId\":\"draft\","
            + "\"metadata\":{\"phase\":\"draft\"},\"state\":{\"count\":3},\"messageHistory\":["
            + "{\"role\":\"SYSTEM\",\"content\":\"You write reports.\"},"
            + "{\"role\":\"USER\",\"content\":\"ok\"},"
            + "{\"role\":\"TOOL_CALL\",\"content\":\"\",\"toolCall\":{\"id\":\"call-1\",\"toolName\":\"create_file\","
            + "\"arguments\":{\"path\":\"a.md\"}}},"
            + "{\"role\":\"TOOL_RESULT\",\"content\":\"ok\",\"metadata\":{\"toolCallId\":\"call-1\",\"toolName\":\"c"
            + "reate_file\"}},"
            + "{\"role\":\"USER\",\"content\":\"ok\"}]}";

    private static final CheckpointLocation WHERE = new CheckpointLocation("writer", "cp-7", "a fixture");

    private static AgentCheckpoint expected() throws Exception {
        return AgentCheckpoint.builder()
                .checkpointId("cp-7")
                .agentId("writer")
                .version(7)
                .createdAt(Instant.parse("2026-01-02T03:04:05.123456789Z"))
                .nodeId("draft")
                .metadata(Map.of("phase", "draft"))
                .state("count", JSON.readTree("3"))
                .message(Message.system("You write reports."))
                .message(Message.user("ok"))
                .message(Message.toolCall(new ToolCall("call-1", "create_file", JSON.readTree("{\"path\":\"a.md\"}"))))
                .message(Message.toolResult("call-1", "create_file", "ok"))
                .message(Message.user("ok"))
                .build();
    }

    private static AgentCheckpoint read() {
        return CheckpointCodec.json().decode(FORMAT_1.getBytes(StandardCharsets.UTF_8), WHERE);
    }

    @Test
    void aFormatOneDocumentReadsCompleteWithStableDerivedIds() throws Exception {
        AgentCheckpoint read = read();
        List<Message> messages = read.messageHistory();
        assertThat(messages).hasSize(5);
        for (int i = 0; i < messages.size(); i++) {
            assertThat(messages.get(i).sameContentAs(expected().messageHistory().get(i)))
                    .as("message %d", i)
                    .isTrue();
            assertThat(JsonCheckpointCodec.isDerivedMessageId(messages.get(i).id()))
                    .isTrue();
        }
        assertThat(read()).as("the same ids on every read").isEqualTo(read);
        assertThat(messages.get(1).id())
                .as("equal messages at different places")
                .isNotEqualTo(messages.get(4).id());
        assertThat(CheckpointContent.same(read, read())).isTrue();
    }

    @Test
    void readingAndWritingAgainStoresNoDerivedIds() {
        AgentCheckpoint read = read();
        byte[] rewritten = CheckpointCodec.json().encode(read);
        assertThat(new String(rewritten, StandardCharsets.UTF_8))
                .contains("\"formatVersion\":2")
                .doesNotContain("\"id\":\"" + read.messageHistory().get(0).id() + "\"");
        AgentCheckpoint again = CheckpointCodec.json().decode(rewritten, WHERE);
        assertThat(again).isEqualTo(read);
        assertThat(again.messageHistory())
                .allSatisfy(message -> assertThat(message.id()).isNull());
    }

    @Test
    void formatOneIsWrittenOnRequestExactlyAsBefore() throws Exception {
        byte[] written = JsonCheckpointCodec.writingFormat(1).encode(expected());
        assertThat(new String(written, StandardCharsets.UTF_8)).isEqualTo(FORMAT_1);
        assertThat(JsonCheckpointCodec.writingFormat(2)).isSameAs(JsonCheckpointCodec.instance());
        assertThatThrownBy(() -> JsonCheckpointCodec.writingFormat(3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("choose 1 to 2");
    }

    @Test
    void formatOneRefusesContentPartsInsteadOfDroppingThem() throws Exception {
        var withParts = expected().toBuilder()
                .message(Message.user(List.of(
                        ContentPart.text("see"),
                        ContentPart.url(ContentPart.MediaKind.IMAGE, "https://example.com/a.png", "image/png"))))
                .build();
        assertThatThrownBy(() -> JsonCheckpointCodec.writingFormat(1).encode(withParts))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("content parts")
                .hasMessageContaining("agent.persistence.format-version");
    }

    @Test
    void theFormatVersionSettingChoosesWhatIsWritten() {
        var config = ProviderConfig.of(Map.of("agent.persistence.format-version", "1"));
        assertThat(StorageSettings.from(config).formatVersion()).isEqualTo(1);
        assertThat(StorageSettings.ofDefaults().formatVersion()).isEqualTo(JsonCheckpointCodec.FORMAT_VERSION);
        assertThat(StorageSettings.from(config).codec().inner()).isSameAs(JsonCheckpointCodec.writingFormat(1));
        var bad = ProviderConfig.of(Map.of("agent.persistence.format-version", "3"));
        assertThatThrownBy(() -> StorageSettings.from(bad)).hasMessageContaining("agent.persistence.format-version");
    }
}
