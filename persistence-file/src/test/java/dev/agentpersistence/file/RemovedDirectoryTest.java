package dev.agentpersistence.file;

import static dev.agentpersistence.file.TestCheckpoints.checkpoint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.file.internal.FileNames;
import dev.agentpersistence.file.internal.FileStorageBackend;
import dev.agentpersistence.file.internal.Fsync;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A provider remembers which agent directories it prepared and does not look at them again on every save; directories
 * removed behind its back (by hand, or by another process deleting everything) are created again by the next save.
 */
class RemovedDirectoryTest {
    private static final String AGENT = "agent";

    @TempDir
    Path root;

    @Test
    void aSaveAfterTheAgentDirectoryWasRemovedCreatesItAgain() throws IOException {
        try (var provider =
                FileStorage.builder(FilePerCheckpoint.config(root).build()).build()) {
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 0));
            deleteTree(LayoutInspection.agentDirectory(root, AGENT));

            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 1));
            assertThat(provider.getCheckpoints(AGENT))
                    .map(AgentCheckpoint::version)
                    .containsExactly(1L);
            assertThat(provider.getCheckpoint(AGENT, "cp-1")).contains(checkpoint(AGENT, 1));
            assertThat(provider.getLatestCheckpoint(AGENT)).contains(checkpoint(AGENT, 1));
        }
    }

    @Test
    void aSaveAfterTheIdIndexWasRemovedCreatesItAgain() throws IOException {
        try (var provider =
                FileStorage.builder(FilePerCheckpoint.config(root).build()).build()) {
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 0));
            deleteTree(LayoutInspection.agentDirectory(root, AGENT).resolve(FileNames.IDS_DIRECTORY));

            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 1));
            assertThat(provider.getCheckpoint(AGENT, "cp-1")).contains(checkpoint(AGENT, 1));
            assertThat(LayoutInspection.idEntries(root, AGENT)).containsExactly("cp-1");
        }
    }

    @Test
    void aSegmentAfterTheSegmentDirectoryWasRemovedCreatesItAgain() throws IOException {
        var context = new dev.agentpersistence.backend.BackendContext(
                Clock.systemUTC(), 1 << 20, java.util.Optional.empty(), false, (agent, id, document, where) -> {
                    throw new AssertionError("segments only: no document is identified");
                });
        try (var backend = new FileStorageBackend(root, Fsync.system(), Duration.ofMinutes(10), true, true, context)) {
            var segments = backend.segments().orElseThrow();
            segments.putSegment(AGENT, "s-1", bytes("one"));
            deleteTree(LayoutInspection.agentDirectory(root, AGENT).resolve(FileNames.SEGMENTS_DIRECTORY));

            segments.putSegment(AGENT, "s-2", bytes("two"));
            assertThat(segments.getSegments(AGENT, List.of("s-1", "s-2"))).containsOnlyKeys("s-2");
            assertThat(segments.getSegments(AGENT, List.of("s-2")).get("s-2")).isEqualTo(bytes("two"));

            deleteTree(LayoutInspection.agentDirectory(root, AGENT));
            segments.putSegment(AGENT, "s-3", bytes("three"));
            assertThat(segments.getSegments(AGENT, List.of("s-3")).get("s-3")).isEqualTo(bytes("three"));
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static void deleteTree(Path directory) throws IOException {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
