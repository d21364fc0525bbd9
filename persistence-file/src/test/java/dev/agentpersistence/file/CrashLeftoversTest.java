package dev.agentpersistence.file;

import static dev.agentpersistence.file.TestCheckpoints.checkpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.file.internal.FileNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a writer that crashed at each step of a save leaves behind: readers never see it, the next writers are not
 * blocked by it for longer than necessary, and opening the store sweeps it.
 */
class CrashLeftoversTest {
    static final String AGENT = "agent";
    static final FileTime LONG_AGO = FileTime.from(Instant.now().minus(Duration.ofHours(2)));

    @TempDir
    Path root;

    Path directory;
    Path ids;

    @BeforeEach
    void saveOne() {
        try (var provider = FilePerCheckpoint.provider(root)) {
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 0));
        }
        directory = LayoutInspection.agentDirectory(root, AGENT);
        ids = directory.resolve(FileNames.IDS_DIRECTORY);
    }

    @Test
    void crashWhileWritingTheTemporaryFile() throws Exception {
        byte[] document = CheckpointCodec.json().encode(checkpoint(AGENT, 1));
        Path oldTemp = directory.resolve(FileNames.TEMP_PREFIX + "crashed-long-ago");
        Path liveTemp = directory.resolve(FileNames.TEMP_PREFIX + "another-process-writing-now");
        Files.write(oldTemp, Arrays.copyOf(document, document.length / 3));
        Files.setLastModifiedTime(oldTemp, LONG_AGO);
        Files.write(liveTemp, Arrays.copyOf(document, document.length / 2));

        try (var provider = FilePerCheckpoint.provider(root)) {
            assertThat(oldTemp).doesNotExist();
            assertThat(liveTemp).exists();
            assertThat(provider.getCheckpoints(AGENT))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(0L);
            assertThat(provider.getLatestCheckpoint(AGENT))
                    .map(AgentCheckpoint::version)
                    .contains(0L);
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 1));
            assertThat(provider.getCheckpoints(AGENT)).hasSize(2);
        }
        try (var provider = FileStorage.builder(FilePerCheckpoint.config(root).build())
                .clock(java.time.Clock.offset(java.time.Clock.systemUTC(), Duration.ofHours(1)))
                .build()) {
            assertThat(liveTemp).doesNotExist();
            assertThat(LayoutInspection.names(directory)).noneMatch(name -> name.startsWith(FileNames.TEMP_PREFIX));
            assertThat(provider.getCheckpoints(AGENT)).hasSize(2);
        }
    }

    @Test
    void crashAfterPublishingButBeforeRemovingTheTemporaryName() throws Exception {
        Path published = directory.resolve(FileNames.versionFileName(0));
        Path temp = directory.resolve(FileNames.TEMP_PREFIX + "left-after-publish");
        Files.createLink(temp, published);
        Files.setLastModifiedTime(temp, LONG_AGO);

        try (var provider = FilePerCheckpoint.provider(root)) {
            assertThat(temp).doesNotExist();
            assertThat(provider.getCheckpoint(AGENT, "cp-0")).contains(checkpoint(AGENT, 0));
        }
    }

    @Test
    void crashBetweenReservingTheIdAndPublishingTheVersion() throws Exception {
        Path entry = ids.resolve(FileNames.encode("cp-1"));
        Files.write(entry, CheckpointCodec.json().encode(checkpoint(AGENT, 1, "cp-1", "crashed writer")));

        try (var provider = FilePerCheckpoint.provider(root)) {
            assertThat(provider.getCheckpoint(AGENT, "cp-1")).isEmpty();
            assertThat(provider.getCheckpoints(AGENT))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(0L);
            // nobody else holds the reservation (it has one name only): the next writer takes over at once
            var replacement = checkpoint(AGENT, 1, "cp-1", "next writer");
            provider.saveCheckpoint(AGENT, replacement);
            assertThat(provider.getCheckpoint(AGENT, "cp-1")).contains(replacement);
        }
        assertThat(LayoutInspection.names(directory)).noneMatch(FileNames::isScratch);
    }

    @Test
    void aReservationStillHeldByALiveWriterIsWaitedFor() throws Exception {
        var inProgress = checkpoint(AGENT, 1, "cp-1", "live writer");
        Path temp = directory.resolve(FileNames.TEMP_PREFIX + "live");
        Files.write(temp, CheckpointCodec.json().encode(inProgress));
        Path entry = ids.resolve(FileNames.encode("cp-1"));
        Files.createLink(entry, temp);

        try (var provider = FilePerCheckpoint.provider(root)) {
            var competing = CompletableFuture.runAsync(
                    () -> provider.saveCheckpoint(AGENT, checkpoint(AGENT, 2, "cp-1", "competitor")));
            TimeUnit.MILLISECONDS.sleep(300);
            assertThat(competing).isNotDone();
            // the live writer publishes and removes its temporary name
            Files.createLink(directory.resolve(FileNames.versionFileName(1)), temp);
            Files.delete(temp);
            assertThatThrownBy(() -> competing.get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(CheckpointConflictException.class);
            assertThat(provider.getCheckpoint(AGENT, "cp-1")).contains(inProgress);
            provider.saveCheckpoint(AGENT, inProgress); // identical: a no-op
        }
    }

    @Test
    void aReservationOlderThanTheGracePeriodIsTakenOver() throws Exception {
        Path temp = directory.resolve(FileNames.TEMP_PREFIX + "hung");
        Files.write(temp, CheckpointCodec.json().encode(checkpoint(AGENT, 1, "cp-1", "hung writer")));
        Files.createLink(ids.resolve(FileNames.encode("cp-1")), temp);
        Files.setLastModifiedTime(temp, LONG_AGO);

        try (var provider = FileStorage.builder(
                        FilePerCheckpoint.config(root).cleanUpOnOpen(false).build())
                .build()) {
            var replacement = checkpoint(AGENT, 3, "cp-1", "next writer");
            provider.saveCheckpoint(AGENT, replacement);
            assertThat(provider.getCheckpoint(AGENT, "cp-1")).contains(replacement);
            assertThat(provider.getCheckpoints(AGENT))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(0L, 3L);
        }
    }

    @Test
    void aMissingIdEntryOfAStoredCheckpointIsRestoredByAnIdenticalResave() throws Exception {
        Files.delete(ids.resolve(FileNames.encode("cp-0")));
        try (var provider = FilePerCheckpoint.provider(root)) {
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 0));
            assertThat(provider.getCheckpoint(AGENT, "cp-0")).contains(checkpoint(AGENT, 0));
        }
    }
}
