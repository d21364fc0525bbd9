package dev.agentpersistence.examples.jsonl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import dev.agentpersistence.codec.DocumentLayers;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the backend's files look like on disk: one file per agent, named by a digest, one record per line. */
class JsonLinesFileFormatTest {
    @TempDir
    Path directory;

    private static AgentCheckpoint checkpoint(String agent, long version) {
        return AgentCheckpoint.builder()
                .checkpointId("cp-" + version)
                .agentId(agent)
                .version(version)
                .createdAt(Instant.parse("2025-05-01T10:00:00.000000001Z"))
                .nodeId("n" + version)
                .message(Message.user("line\nbreak and \"quotes\"").withId("m-" + version))
                .metadata("phase", "draft")
                .build();
    }

    @Test
    void oneFilePerAgentWithOneLinePerRecord() throws Exception {
        String hostile = "a\"b/../c";
        try (var storage =
                StorageShell.builder(new JsonLinesStorageBackend(directory)).build()) {
            storage.saveCheckpoint(hostile, checkpoint(hostile, 0));
            storage.saveCheckpoint(hostile, checkpoint(hostile, 1));
            storage.saveCheckpoint("other", checkpoint("other", 0));
            assertThat(storage.listAgents()).containsExactly(hostile, "other");
        }
        Path file = JsonLinesStorageBackend.file(directory, hostile);
        assertThat(file.getFileName().toString()).matches("[0-9a-f]{64}\\.jsonl");
        var lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0))
                .startsWith("{\"agentId\":\"a\\\"b/../c\",\"checkpointId\":\"cp-0\",\"version\":0,"
                        + "\"createdAt\":\"2025-05-01T10:00:00.000000001Z\",\"expiresAt\":null,\"nodeId\":\"n0\","
                        + "\"tombstone\":false,\"metadata\":{\"phase\":\"draft\"},\"document\":\"");
        try (var reopened = StorageShell.builder(new JsonLinesStorageBackend(directory))
                .settings(StorageSettings.custom().incrementalHistory(false).build())
                .build()) {
            assertThat(reopened.getCheckpoints(hostile))
                    .containsExactly(checkpoint(hostile, 0), checkpoint(hostile, 1));
            assertThat(reopened.deleteCheckpointsBefore(hostile, 1)).isEqualTo(1);
        }
        assertThat(Files.readAllLines(file)).hasSize(1);
    }

    @Test
    void aTemporaryFileACrashLeftIsIgnoredAndWritesLeaveNone() throws Exception {
        try (var storage =
                StorageShell.builder(new JsonLinesStorageBackend(directory)).build()) {
            storage.saveCheckpoint("agent", checkpoint("agent", 0));
            Path file = JsonLinesStorageBackend.file(directory, "agent");
            String line = Files.readString(file);
            String next =
                    line.replace("\"checkpointId\":\"cp-0\",\"version\":0", "\"checkpointId\":\"cp-1\",\"version\":1");
            Files.writeString(directory.resolve(".rewrite123.tmp"), line + next.substring(0, next.length() / 2));

            assertThat(storage.listAgents())
                    .as("a rewrite cut short by a crash, never moved over the file")
                    .containsExactly("agent");
            assertThat(storage.getCheckpoints("agent")).containsExactly(checkpoint("agent", 0));
            storage.saveCheckpoint("agent", checkpoint("agent", 1));
            storage.deleteCheckpointsBefore("agent", 1);
            assertThat(storage.getCheckpoints("agent")).containsExactly(checkpoint("agent", 1));
            assertThat(Files.readAllLines(file)).hasSize(1);
        }
        try (var files = Files.walk(directory)) {
            assertThat(files.map(f -> f.getFileName().toString()).filter(name -> name.endsWith(".tmp")))
                    .containsExactly(".rewrite123.tmp");
        }
    }

    @Test
    void aDocumentOverTheMaximumSizeIsAnErrorNamingItWhileTheOthersRead() throws Exception {
        var big = AgentCheckpoint.builder()
                .checkpointId("cp-big")
                .agentId("agent")
                .version(1)
                .createdAt(Instant.parse("2025-05-01T10:00:00Z"))
                .nodeId("n1")
                .message(Message.user("x".repeat(200_000)).withId("big"))
                .build();
        var plain = StorageSettings.custom()
                .layers(DocumentLayers.none())
                .incrementalHistory(false)
                .build();
        try (var writer = StorageShell.builder(new JsonLinesStorageBackend(directory))
                .settings(plain)
                .build()) {
            writer.saveCheckpoint("agent", checkpoint("agent", 0));
            writer.saveCheckpoint("agent", big);
            writer.saveCheckpoint("agent", checkpoint("agent", 2));
        }
        Path file = JsonLinesStorageBackend.file(directory, "agent");
        String before = Files.readString(file);
        var small = StorageSettings.custom().maxCheckpointSize(100_000).build();
        try (var reader = StorageShell.builder(new JsonLinesStorageBackend(directory, small.maxCheckpointSize()))
                .settings(small)
                .build()) {
            assertThatThrownBy(() -> reader.getCheckpoint("agent", "cp-big"))
                    .isInstanceOf(CorruptCheckpointException.class)
                    .hasMessageContaining("cp-big")
                    .hasMessageContaining("agent")
                    .hasMessageContaining(file.toString());
            assertThat(reader.getCheckpoint("agent", "cp-0")).contains(checkpoint("agent", 0));
            assertThat(reader.getLatestCheckpoint("agent")).contains(checkpoint("agent", 2));
            assertThatThrownBy(() -> reader.deleteCheckpointsBefore("agent", 1))
                    .as("a rewrite never drops what it did not read")
                    .isInstanceOf(CorruptCheckpointException.class);
            assertThatThrownBy(() -> reader.saveCheckpoint("agent", checkpoint("agent", 3)))
                    .as("nor does the rewrite of a save")
                    .isInstanceOf(CorruptCheckpointException.class);
        }
        assertThat(Files.readString(file)).isEqualTo(before);
    }
}
