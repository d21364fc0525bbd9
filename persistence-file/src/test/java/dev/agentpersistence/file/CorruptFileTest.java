package dev.agentpersistence.file;

import static dev.agentpersistence.file.TestCheckpoints.checkpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.file.internal.FileNames;
import dev.agentpersistence.storage.StorageSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A damaged file is reported with its path, never silently skipped, and does not hide the others. */
class CorruptFileTest {
    static final String AGENT = "agent";

    @TempDir
    Path root;

    Path directory;

    @BeforeEach
    void saveFive() {
        try (var provider = FilePerCheckpoint.provider(root)) {
            for (int version = 0; version < 5; version++) {
                provider.saveCheckpoint(AGENT, checkpoint(AGENT, version));
            }
        }
        directory = LayoutInspection.agentDirectory(root, AGENT);
    }

    @Test
    void aTruncatedFileIsReportedWithItsPathWhileTheOthersStayReadable() throws Exception {
        Path damaged = truncate(2);
        try (var provider = FilePerCheckpoint.provider(root)) {
            assertThatThrownBy(() -> provider.getCheckpoints(AGENT))
                    .isInstanceOfSatisfying(CorruptCheckpointException.class, e -> {
                        assertThat(e.location()).isEqualTo(damaged.toString());
                        assertThat(e.agentId()).isEqualTo(AGENT);
                    })
                    .hasMessageContaining(damaged.toString());
            assertThatThrownBy(() -> provider.getCheckpoint(AGENT, "cp-2"))
                    .isInstanceOfSatisfying(
                            CorruptCheckpointException.class,
                            e -> assertThat(e.checkpointId()).isEqualTo("cp-2"));

            assertThat(provider.getLatestCheckpoint(AGENT))
                    .map(AgentCheckpoint::version)
                    .contains(4L);
            assertThat(provider.getCheckpoints(
                            AGENT, CheckpointFilter.builder().limit(2).build()))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(3L, 4L);
            assertThat(provider.getCheckpoints(
                            AGENT, CheckpointFilter.builder().maxVersion(1L).build()))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(0L, 1L);
            assertThat(provider.getCheckpoint(AGENT, "cp-3")).isPresent();
            assertThat(provider.listAgents()).containsExactly(AGENT);
            // filters on document fields walk newest first and stop at the limit: the old file is never read
            assertThat(provider.getLatestCheckpoint(
                            AGENT,
                            CheckpointFilter.builder()
                                    .metadata("writer", "test")
                                    .build()))
                    .map(AgentCheckpoint::version)
                    .contains(4L);
            assertThat(provider.getCheckpoints(
                            AGENT,
                            CheckpointFilter.builder()
                                    .createdAfter(TestCheckpoints.T0)
                                    .limit(2)
                                    .build()))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(3L, 4L);
            assertThatThrownBy(() -> provider.getCheckpoints(
                            AGENT, CheckpointFilter.builder().nodeId("node-1").build()))
                    .as("a filter that must look further down does reach the damaged file")
                    .isInstanceOf(CorruptCheckpointException.class);
        }
    }

    @Test
    void garbageEmptyAndMisfiledFilesAreCorrupt() throws Exception {
        Files.write(file(1), "this is not a checkpoint".getBytes(StandardCharsets.UTF_8));
        Files.write(file(3), new byte[0]);
        Files.copy(file(4), file(7)); // the document of version 4 filed as version 7
        try (var provider = FilePerCheckpoint.provider(root)) {
            for (long version : new long[] {1, 3, 7}) {
                assertThatThrownBy(() -> provider.getCheckpoints(
                                AGENT,
                                CheckpointFilter.builder()
                                        .maxVersion(version)
                                        .limit(1)
                                        .build()))
                        .isInstanceOf(CorruptCheckpointException.class)
                        .hasMessageContaining(file(version).toString());
            }
            assertThatThrownBy(() -> provider.getLatestCheckpoint(AGENT))
                    .isInstanceOf(CorruptCheckpointException.class)
                    .hasMessageContaining("filed as version 7");
        }
    }

    @Test
    void skippingCorruptFilesLogsAWarningForEach() throws Exception {
        Path damaged = truncate(2);
        var captured = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try (var provider = FileStorage.builder(FilePerCheckpoint.config(root).build())
                .settings(StorageSettings.custom().skipCorrupt(true).build())
                .build()) {
            assertThat(provider.getCheckpoints(AGENT))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(0L, 1L, 3L, 4L);
            assertThat(provider.getCheckpoint(AGENT, "cp-2")).isEmpty();
        } finally {
            System.setErr(original);
        }
        assertThat(captured.toString(StandardCharsets.UTF_8))
                .contains("WARN")
                .contains("Skipping a corrupt checkpoint")
                .contains(damaged.toString());
    }

    @Test
    void aSaveNeverSkipsAndLeavesNoReservationWhenTheVersionIsCorrupt() throws Exception {
        truncate(2);
        try (var provider = FileStorage.builder(FilePerCheckpoint.config(root).build())
                .settings(StorageSettings.custom().skipCorrupt(true).build())
                .build()) {
            assertThatThrownBy(() -> provider.saveCheckpoint(AGENT, checkpoint(AGENT, 2, "new-id", "test")))
                    .isInstanceOf(CorruptCheckpointException.class);
            assertThat(LayoutInspection.idEntries(root, AGENT)).doesNotContain("new-id");
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 5, "new-id", "test"));
            assertThat(provider.getCheckpoint(AGENT, "new-id")).isPresent();
        }
    }

    @Test
    void aHugeFileIsRefusedFromItsSizeBeforeAnythingIsAllocated() throws Exception {
        Path huge = file(2);
        Files.delete(huge);
        try (var sparse = new java.io.RandomAccessFile(huge.toFile(), "rw")) {
            sparse.setLength(900L << 20); // 900 MiB claimed, nothing written
        }
        var oneMebibyte = dev.agentpersistence.storage.StorageSettings.custom()
                .maxCheckpointSize(1 << 20)
                .build();
        try (var provider = FileStorage.builder(FilePerCheckpoint.config(root).build())
                .settings(oneMebibyte)
                .build()) {
            assertThatThrownBy(() -> provider.getCheckpoints(
                            AGENT,
                            CheckpointFilter.builder().maxVersion(2L).limit(1).build()))
                    .isInstanceOfSatisfying(CorruptCheckpointException.class, e -> {
                        assertThat(e.location()).isEqualTo(huge.toString());
                        assertThat(e.agentId()).isEqualTo(AGENT);
                    })
                    .hasMessageContaining("943718400 bytes")
                    .hasMessageContaining("1048576");
            assertThat(provider.getLatestCheckpoint(AGENT))
                    .map(AgentCheckpoint::version)
                    .contains(4L);
            assertThat(provider.getCheckpoints(
                            AGENT, CheckpointFilter.builder().maxVersion(1L).build()))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(0L, 1L);
        }
    }

    private Path file(long version) {
        return directory.resolve(FileNames.versionFileName(version));
    }

    private Path truncate(long version) throws Exception {
        Path file = file(version);
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length / 2)); // the id entry is the same file
        return file;
    }
}
