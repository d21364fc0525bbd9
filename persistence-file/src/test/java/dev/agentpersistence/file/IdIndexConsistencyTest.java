package dev.agentpersistence.file;

import static dev.agentpersistence.file.TestCheckpoints.checkpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.file.internal.FileNames;
import dev.agentpersistence.storage.StorageShell;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the conformance kit cannot see: after conflicts, deletions and races the id index holds exactly one entry per
 * stored checkpoint, each the same file as its checkpoint file, and no scratch files remain.
 */
class IdIndexConsistencyTest {
    static final String AGENT = "agent-1";

    @TempDir
    Path root;

    StorageShell provider;

    @BeforeEach
    void open() {
        provider = FileStorage.builder(FilePerCheckpoint.config(root).build()).build();
    }

    @AfterEach
    void close() throws Exception {
        assertConsistent();
        provider.close();
    }

    @Test
    void losersOfAConflictLeaveNothingBehind() {
        AgentCheckpoint original = checkpoint(AGENT, 1);
        provider.saveCheckpoint(AGENT, original);
        provider.saveCheckpoint(AGENT, original);

        assertThatThrownBy(() -> provider.saveCheckpoint(AGENT, checkpoint(AGENT, 1, "other-id", "test")))
                .isInstanceOf(CheckpointConflictException.class)
                .hasMessageContaining("version 1");
        assertThatThrownBy(() -> provider.saveCheckpoint(AGENT, checkpoint(AGENT, 2, "cp-1", "test")))
                .isInstanceOf(CheckpointConflictException.class)
                .hasMessageContaining("cp-1");
        assertThatThrownBy(() -> provider.saveCheckpoint(AGENT, checkpoint(AGENT, 1, "cp-1", "someone else")))
                .isInstanceOf(CheckpointConflictException.class);

        assertThat(LayoutInspection.idEntries(root, AGENT)).containsExactly("cp-1");
        assertThat(LayoutInspection.names(LayoutInspection.agentDirectory(root, AGENT)))
                .containsExactly(FileNames.HEAD_FILE, FileNames.HEAD_LOCK_FILE, ".ids", FileNames.versionFileName(1));
        provider.saveCheckpoint(AGENT, checkpoint(AGENT, 2, "other-id", "test"));
        assertThat(provider.getCheckpoint(AGENT, "other-id"))
                .map(AgentCheckpoint::version)
                .contains(2L);
    }

    @Test
    void deletionRemovesTheIdEntriesOfExactlyTheDeletedCheckpoints() {
        for (int version = 0; version < 5; version++) {
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, version));
        }
        assertThat(provider.deleteCheckpointsBefore(AGENT, 3)).isEqualTo(3);
        assertThat(LayoutInspection.idEntries(root, AGENT)).containsExactly("cp-3", "cp-4");
        provider.saveCheckpoint(AGENT, checkpoint(AGENT, 5, "cp-1", "test")); // a deleted id is free again

        assertThat(provider.deleteCheckpoints(AGENT)).isEqualTo(3);
        assertThat(LayoutInspection.idEntries(root, AGENT)).isEmpty();
        assertThat(provider.listAgents()).isEmpty();
        provider.saveCheckpoint(AGENT, checkpoint(AGENT, 0)); // same id and version as a deleted one
        assertThat(provider.listAgents()).containsExactly(AGENT);
    }

    @Test
    void sixteenThreadsRacingOnOneVersionAndPartlyOnOneIdLeaveOneEntry() throws Exception {
        var pool = Executors.newFixedThreadPool(16);
        try {
            var start = new CountDownLatch(1);
            var futures = new ArrayList<Future<Boolean>>();
            for (int racer = 0; racer < 16; racer++) {
                String id = racer % 2 == 0 ? "shared-id" : "racer-" + racer;
                String writer = "racer-" + racer;
                futures.add(pool.submit(() -> {
                    start.await();
                    try {
                        provider.saveCheckpoint(AGENT, checkpoint(AGENT, 0, id, writer));
                        return true;
                    } catch (CheckpointConflictException e) {
                        return false;
                    }
                }));
            }
            start.countDown();
            int winners = 0;
            for (var future : futures) {
                winners += future.get(60, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(winners).isEqualTo(1);
            AgentCheckpoint winner = provider.getCheckpoints(AGENT).get(0);
            assertThat(provider.getCheckpoint(AGENT, winner.checkpointId())).contains(winner);
            assertThat(LayoutInspection.idEntries(root, AGENT)).containsExactly(winner.checkpointId());
        } finally {
            pool.shutdownNow();
        }
    }

    /** One id entry per checkpoint file, each a hard link of it; no scratch files. */
    private void assertConsistent() throws Exception {
        Path directory = LayoutInspection.agentDirectory(root, AGENT);
        var stored = provider.getCheckpoints(AGENT);
        assertThat(LayoutInspection.idEntries(root, AGENT)).hasSize(stored.size());
        for (AgentCheckpoint checkpoint : stored) {
            Path entry =
                    directory.resolve(FileNames.IDS_DIRECTORY).resolve(FileNames.encode(checkpoint.checkpointId()));
            assertThat(Files.isSameFile(entry, directory.resolve(FileNames.versionFileName(checkpoint.version()))))
                    .as("id entry of %s", checkpoint.checkpointId())
                    .isTrue();
        }
        assertThat(LayoutInspection.names(directory)).noneMatch(FileNames::isScratch);
    }
}
