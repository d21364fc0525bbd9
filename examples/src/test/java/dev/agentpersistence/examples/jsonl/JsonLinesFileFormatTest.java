package dev.agentpersistence.examples.jsonl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the JSON Lines file looks like on disk, and how the provider treats torn and broken lines. */
class JsonLinesFileFormatTest {
    @TempDir
    Path directory;

    private static AgentCheckpoint checkpoint(String agent, long version) {
        return AgentCheckpoint.builder().checkpointId("cp-" + version).agentId(agent).version(version)
                .createdAt(Instant.parse("2025-05-01T10:00:00.000000001Z")).nodeId("n" + version)
                .message(Message.user("line\nbreak and \"quotes\"")).build();
    }

    @Test
    void aHeaderThenOneRecordPerLineWithTheAgentIdAsAJsonString() throws Exception {
        Path file = directory.resolve("cp.jsonl");
        try (var provider = JsonLinesStorageProvider.open(file)) {
            provider.saveCheckpoint("a\"b/../c", checkpoint("a\"b/../c", 0));
            provider.saveCheckpoint("other", checkpoint("other", 0));
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("{\"format\":\"agent-persistence-jsonl\",\"generation\":\"");
        assertThat(lines.get(1)).startsWith("{\"agent\":\"a\\\"b/../c\",\"checkpoint\":{");
        assertThat(lines.get(2)).startsWith("{\"agent\":\"other\",\"checkpoint\":{");
        assertThat(Files.exists(directory.resolve("cp.jsonl.lock"))).isTrue();

        try (var reopened = JsonLinesStorageProvider.open(file)) {
            assertThat(reopened.getCheckpoints("a\"b/../c")).containsExactly(checkpoint("a\"b/../c", 0));
            assertThat(reopened.listAgents()).containsExactly("a\"b/../c", "other");
        }
    }

    @Test
    void aTornLastLineFromACrashIsIgnoredAndCutOffByTheNextSave() throws Exception {
        Path file = directory.resolve("cp.jsonl");
        try (var provider = JsonLinesStorageProvider.open(file)) {
            provider.saveCheckpoint("agent", checkpoint("agent", 0));
        }
        Files.writeString(file, "{\"agent\":\"agent\",\"checkpoint\":{\"half", StandardOpenOption.APPEND);

        try (var provider = JsonLinesStorageProvider.open(file)) {
            assertThat(provider.getCheckpoints("agent")).containsExactly(checkpoint("agent", 0));
            provider.saveCheckpoint("agent", checkpoint("agent", 1));
            assertThat(provider.getCheckpoints("agent")).containsExactly(checkpoint("agent", 0), checkpoint("agent", 1));
        }
        assertThat(Files.readString(file)).doesNotContain("half").endsWith("}\n");
        assertThat(Files.readAllLines(file)).hasSize(3);
    }

    @Test
    void aBrokenLineIsReportedWithTheFileAndLineNumber() throws Exception {
        Path file = directory.resolve("cp.jsonl");
        try (var provider = JsonLinesStorageProvider.open(file)) {
            provider.saveCheckpoint("agent", checkpoint("agent", 0));
        }
        Files.writeString(file, "{\"agent\":\"agent\",\"checkpoint\":{\"format\":\"nonsense\"}}\n", StandardOpenOption.APPEND);

        try (var provider = JsonLinesStorageProvider.open(file)) {
            assertThatThrownBy(() -> provider.getCheckpoints("agent"))
                    .isInstanceOf(CorruptCheckpointException.class)
                    .hasMessageContaining("agent 'agent'")
                    .hasMessageContaining(file + ":3");
        }
    }

    @Test
    void deletionsRewriteTheFileWithoutTheDeletedLines() throws Exception {
        Path file = directory.resolve("cp.jsonl");
        try (var provider = JsonLinesStorageProvider.open(file)) {
            for (int v = 0; v < 4; v++) {
                provider.saveCheckpoint("agent", checkpoint("agent", v));
            }
            provider.saveCheckpoint("kept", checkpoint("kept", 0));
            String generation = Files.readAllLines(file).get(0);

            assertThat(provider.deleteCheckpointsBefore("agent", 3)).isEqualTo(3);

            List<String> lines = Files.readAllLines(file);
            assertThat(lines.get(0)).as("a new generation").isNotEqualTo(generation);
            assertThat(lines).hasSize(3);
            assertThat(provider.getCheckpoints("agent")).containsExactly(checkpoint("agent", 3));
            assertThat(provider.getCheckpoints("kept")).containsExactly(checkpoint("kept", 0));
        }
    }
}
