package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.InvalidIdentifierException;
import dev.agentpersistence.Message;
import dev.agentpersistence.codec.DocumentLayers;
import dev.agentpersistence.history.IncrementalHistoryConfig;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The storage shell over a heap backend: reading every form, typed errors, conflicts, limits, TTL. */
class StorageShellTest {
    private static final Instant T0 = Instant.parse("2026-11-24T10:15:30.123456789Z");
    private static final StorageSettings INCREMENTAL = StorageSettings.custom()
            .history(IncrementalHistoryConfig.custom().blockSize(16).build())
            .build();
    private static final StorageSettings PLAIN = StorageSettings.custom()
            .layers(DocumentLayers.none())
            .incrementalHistory(false)
            .build();

    private static List<Message> history(int size) {
        var messages = new ArrayList<Message>();
        for (int i = 0; i < size; i++) {
            Message message = i % 2 == 0 ? Message.user("question " + i) : Message.assistant("answer " + i);
            messages.add(message.withId("m-" + i));
        }
        return messages;
    }

    private static AgentCheckpoint checkpoint(String agent, long version, int messages) {
        return AgentCheckpoint.builder()
                .checkpointId("cp-" + version)
                .agentId(agent)
                .version(version)
                .createdAt(T0.plusSeconds(version))
                .nodeId("node")
                .messageHistory(history(messages))
                .metadata(Map.of("phase", "p" + version))
                .build();
    }

    @Test
    @DisplayName(
            "a reader whose settings write plain JSON reads a 600-message incremental, compressed checkpoint whole")
    void plainReaderReadsIncrementalHistory() {
        var backend = new TestHeapBackend(true, false);
        var writer = StorageShell.builder(backend).settings(INCREMENTAL).build();
        var saved = checkpoint("agent", 0, 600);
        writer.saveCheckpoint("agent", saved);
        var stored = backend.records.get("agent").get(0L);
        assertThat(stored.document()[0])
                .as("compressed or checksummed, not plain JSON")
                .isNotEqualTo((byte) '{');
        assertThat(backend.segments.get("agent")).isNotEmpty();

        var reader = StorageShell.builder(backend).settings(PLAIN).build();
        assertThat(reader.getLatestCheckpoint("agent")).contains(saved);
        assertThat(reader.getLatestCheckpoint("agent").orElseThrow().messageHistory())
                .hasSize(600);
        assertThat(reader.getCheckpoints("agent")).containsExactly(saved);
        assertThat(reader.getCheckpoint("agent", "cp-0")).contains(saved);
    }

    @Test
    @DisplayName("a checkpoint whose history lives in segments the backend cannot give is a typed error, never a short "
            + "history")
    void missingSegmentsAreCorruption() {
        var withSegments = new TestHeapBackend(true, false);
        StorageShell.builder(withSegments)
                .settings(INCREMENTAL)
                .build()
                .saveCheckpoint("agent", checkpoint("agent", 0, 600));
        var withoutSegments = new TestHeapBackend(false, false);
        withoutSegments.records.putAll(withSegments.records);
        var reader = StorageShell.builder(withoutSegments).build();
        assertThatThrownBy(() -> reader.getLatestCheckpoint("agent"))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("agent")
                .hasMessageContaining("cp-0");

        withSegments.segments.get("agent").clear();
        assertThatThrownBy(() -> StorageShell.builder(withSegments).build().getCheckpoints("agent"))
                .isInstanceOf(CorruptCheckpointException.class);
    }

    @Test
    @DisplayName(
            "a history descriptor claiming 2,000,000,001 messages is corrupt, found before anything is sized by it")
    void hugeDescriptorClaims() {
        var backend = new TestHeapBackend(true, false);
        var shell = StorageShell.builder(backend).settings(INCREMENTAL).build();
        shell.saveCheckpoint("agent", checkpoint("agent", 0, 40));
        shell.saveCheckpoint("agent", checkpoint("agent", 1, 2));
        String segment = backend.segments.get("agent").keySet().iterator().next();
        String hostile = "0-2000000000-" + segment.substring(segment.lastIndexOf('-') + 1);
        backend.segments.get("agent").put(hostile, backend.segments.get("agent").get(segment));
        var claim = checkpoint("agent", 0, 1).toBuilder()
                .metadata(Map.of(
                        "__agent-persistence.history",
                        "{\"format\":1,\"size\":2000000001,\"blockSize\":16,\"segments\":[\"" + hostile
                                + "\"],\"digest\":\"00\"}"))
                .build();
        backend.tamper(
                "agent", 0, dev.agentpersistence.codec.CheckpointCodec.json().encode(claim));
        assertThatThrownBy(() -> StorageShell.builder(backend).build().getCheckpoint("agent", "cp-0"))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining(
                        "cp-0"); // the segment does not hold what the id claims: found before sizing anything
        assertThat(StorageShell.builder(backend).build().getLatestCheckpoint("agent"))
                .contains(checkpoint("agent", 1, 2));
    }

    @Test
    @DisplayName(
            "a stored document over the maximum size is refused before decoding; the agent's other checkpoints still "
                    + "read")
    void oversizedStoredDocument() {
        var backend = new TestHeapBackend(true, false);
        var settings = StorageSettings.from(PLAIN).maxCheckpointSize(4096).build();
        var shell = StorageShell.builder(backend).settings(settings).build();
        shell.saveCheckpoint("agent", checkpoint("agent", 0, 2));
        shell.saveCheckpoint("agent", checkpoint("agent", 1, 2));
        backend.tamper("agent", 0, new byte[5000]);
        assertThatThrownBy(() -> shell.getCheckpoint("agent", "cp-0"))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("5000")
                .hasMessageContaining("heap record agent/cp-0");
        assertThat(shell.getLatestCheckpoint("agent")).contains(checkpoint("agent", 1, 2));
    }

    @Test
    @DisplayName("tampered bytes are a CorruptCheckpointException naming agent, checkpoint and location")
    void tamperedBytes() {
        var backend = new TestHeapBackend(true, false);
        var shell = StorageShell.builder(backend).build();
        shell.saveCheckpoint("agent", checkpoint("agent", 0, 3));
        byte[] document = backend.records.get("agent").get(0L).document().clone();
        document[document.length - 3] ^= 1;
        backend.tamper("agent", 0, document);
        assertThatThrownBy(() -> shell.getLatestCheckpoint("agent"))
                .isInstanceOf(CorruptCheckpointException.class)
                .satisfies(e -> {
                    var corrupt = (CorruptCheckpointException) e;
                    assertThat(corrupt.agentId()).isEqualTo("agent");
                    assertThat(corrupt.checkpointId()).isEqualTo("cp-0");
                    assertThat(corrupt.location()).contains("heap record agent/cp-0");
                });
    }

    @Test
    @DisplayName("an identical re-save is a no-op whatever the writer's settings; different content is a conflict")
    void conflicts() {
        var backend = new TestHeapBackend(true, false);
        StorageShell.builder(backend)
                .settings(INCREMENTAL)
                .build()
                .saveCheckpoint("agent", checkpoint("agent", 0, 100));
        var plain = StorageShell.builder(backend).settings(PLAIN).build();
        plain.saveCheckpoint("agent", checkpoint("agent", 0, 100));
        assertThatThrownBy(() -> plain.saveCheckpoint("agent", checkpoint("agent", 0, 99)))
                .isInstanceOf(CheckpointConflictException.class);
        var sameIdOtherVersion = AgentCheckpoint.builder()
                .checkpointId("cp-0")
                .agentId("agent")
                .version(7)
                .createdAt(T0)
                .build();
        assertThatThrownBy(() -> plain.saveCheckpoint("agent", sameIdOtherVersion))
                .isInstanceOf(CheckpointConflictException.class);
        assertThat(plain.getCheckpoints("agent")).containsExactly(checkpoint("agent", 0, 100));
    }

    @Test
    @DisplayName("filters reach the backend as attributes; reserved metadata keys are refused")
    void attributesAndReservedKeys() {
        var shell = StorageShell.builder(new TestHeapBackend(true, false)).build();
        shell.saveCheckpoint("agent", checkpoint("agent", 0, 1));
        shell.saveCheckpoint("agent", checkpoint("agent", 1, 1));
        assertThat(shell.getCheckpoints(
                        "agent",
                        CheckpointFilter.builder().metadata("phase", "p1").build()))
                .extracting(AgentCheckpoint::version)
                .containsExactly(1L);
        var reserved = AgentCheckpoint.builder()
                .checkpointId("x")
                .agentId("agent")
                .version(5)
                .createdAt(T0)
                .metadata(Map.of("__agent-persistence.history", "{}"))
                .build();
        assertThatThrownBy(() -> shell.saveCheckpoint("agent", reserved)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> shell.getCheckpoints(
                        "agent",
                        CheckpointFilter.builder()
                                .metadata("__agent-persistence.history", "{}")
                                .build()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @DisplayName("a time to live needs a backend that keeps expiry times; expired records go with deleteExpired")
    void timeToLive() {
        var ttl = StorageSettings.custom().ttl(Duration.ofMinutes(5)).build();
        assertThatThrownBy(() -> StorageShell.builder(new TestHeapBackend(true, false))
                        .settings(ttl)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("time to live");
        var backend = new TestHeapBackend(true, true);
        StorageShell.builder(backend)
                .settings(ttl)
                .clock(Clock.fixed(T0, ZoneOffset.UTC))
                .build()
                .saveCheckpoint("agent", checkpoint("agent", 0, 1));
        assertThat(backend.records.get("agent").get(0L).expiresAt()).isEqualTo(T0.plus(Duration.ofMinutes(5)));
        var later = StorageShell.builder(backend)
                .clock(Clock.fixed(T0.plus(Duration.ofMinutes(6)), ZoneOffset.UTC))
                .build();
        assertThat(later.deleteExpired()).isEqualTo(1);
        assertThat(later.getCheckpoints("agent")).isEmpty();
    }

    @Test
    @DisplayName("after close every call throws IllegalStateException; ids are checked before the backend is called")
    void closedAndIds() {
        var shell = StorageShell.builder(new TestHeapBackend(true, false)).build();
        assertThatThrownBy(() -> shell.getCheckpoints("bad\u0000id")).isInstanceOf(InvalidIdentifierException.class);
        shell.close();
        shell.close();
        assertThatThrownBy(() -> shell.getLatestCheckpoint("agent")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> shell.storedForm().orElseThrow().segments().listSegments("agent"))
                .isInstanceOf(IllegalStateException.class);
    }
}
