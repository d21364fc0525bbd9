package dev.agentpersistence.file.internal;

import static dev.agentpersistence.file.internal.HeadCheckpoints.checkpoint;
import static dev.agentpersistence.file.internal.HeadCheckpoints.deadWriter;
import static dev.agentpersistence.file.internal.HeadCheckpoints.head;
import static dev.agentpersistence.file.internal.HeadCheckpoints.liveWriter;
import static dev.agentpersistence.file.internal.HeadCheckpoints.open;
import static dev.agentpersistence.file.internal.HeadCheckpoints.plant;
import static dev.agentpersistence.file.internal.HeadCheckpoints.readHead;
import static dev.agentpersistence.file.internal.HeadCheckpoints.readState;
import static dev.agentpersistence.file.internal.HeadCheckpoints.writeHead;
import static dev.agentpersistence.file.internal.HeadCheckpoints.writeState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.storage.StorageShell;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The head file: used when it can be trusted, and every other state of it — garbled, oversized, of another boot, naming
 * a missing version, listing saves in flight or writers that died — leads to the directory listing and the right
 * answer.
 */
class HeadFileTest {
    static final String AGENT = "headed";

    @TempDir
    Path root;

    @TempDir
    Path scratch;

    @Test
    void aSaveLeavesATrustedHeadNamingTheHighestVersion() throws Exception {
        try (var provider = open(root)) {
            for (long version : new long[] {3, 0, 7, 5}) {
                provider.saveCheckpoint(AGENT, checkpoint(AGENT, version, "w"));
            }
            assertThat(readHead(root, AGENT)).contains(head(7));
            assertThat(provider.getLatestCheckpoint(AGENT))
                    .map(AgentCheckpoint::version)
                    .contains(7L);
        }
    }

    /**
     * A checkpoint file that appears without a registration (here planted by hand) is not seen while the head is
     * trusted: the read does not list the directory. As soon as the head lists a save in flight — running or crashed —
     * the read lists and finds it.
     */
    @Test
    void theHeadIsReadInsteadOfTheListingUnlessASaveIsInFlight() throws Exception {
        try (var provider = open(root)) {
            for (long version = 0; version < 5; version++) {
                provider.saveCheckpoint(AGENT, checkpoint(AGENT, version, "w"));
            }
            AgentCheckpoint planted = plant(root, scratch, AGENT, 9);
            assertThat(provider.getLatestCheckpoint(AGENT))
                    .map(AgentCheckpoint::version)
                    .contains(4L);

            HeadState inFlight = head(4, liveWriter(9));
            writeState(root, AGENT, inFlight);
            assertThat(provider.getLatestCheckpoint(AGENT)).contains(planted);
            assertThat(readState(root, AGENT))
                    .as("a running writer's entry is left alone")
                    .contains(inFlight);
            assertThat(readHead(root, AGENT)).isEmpty();

            // the writer was killed after publishing, before finishing: the read lists, and rebuilds
            writeState(root, AGENT, head(4, deadWriter(9)));
            assertThat(provider.getLatestCheckpoint(AGENT)).contains(planted);
            assertThat(readHead(root, AGENT)).contains(head(9));
            assertThat(provider.getLatestCheckpoint(AGENT)).contains(planted);
        }
    }

    /**
     * A save killed under the lock after linking its version, before writing the state again: the state it garbled
     * first is trusted by nobody, so reads list and the next save lists too — instead of folding its own, lower version
     * into a stale {@code latest}.
     */
    @Test
    void aSaveKilledWhilePublishingLeavesAStateThatIsRebuilt() throws Exception {
        try (var provider = open(root)) {
            for (long version = 0; version < 5; version++) {
                provider.saveCheckpoint(AGENT, checkpoint(AGENT, version, "w"));
            }
            var files = new DurableFiles(Fsync.none());
            var layout = new FileLayout(root, files);
            var head = new AgentHead(layout, files, Clock.systemUTC(), Duration.ofMinutes(1), root.toRealPath());
            var planted = new AtomicReference<AgentCheckpoint>();
            assertThatThrownBy(() -> head.publish(layout.agent(AGENT), 9, null, () -> {
                        assertThat(readState(root, AGENT))
                                .as("the state is garbled before the link")
                                .isEmpty();
                        assertThat(readHead(root, AGENT))
                                .as("and the head removed")
                                .isEmpty();
                        planted.set(plant(root, scratch, AGENT, 9));
                        throw new IllegalStateException("killed after linking");
                    }))
                    .hasMessage("killed after linking");

            assertThat(provider.getLatestCheckpoint(AGENT)).contains(planted.get());
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 5, "w"));
            assertThat(readHead(root, AGENT)).contains(head(9));
            assertThat(provider.getLatestCheckpoint(AGENT)).contains(planted.get());
        }
    }

    /** A writer that does not keep the head (an older version of this module) saves the next versions. */
    @Test
    void theNextVersionWrittenWithoutTheHeadIsFound() throws Exception {
        try (var provider = open(root)) {
            for (long version = 0; version < 3; version++) {
                provider.saveCheckpoint(AGENT, checkpoint(AGENT, version, "w"));
            }
            assertThat(readHead(root, AGENT)).contains(head(2));
            AgentCheckpoint third = plant(root, scratch, AGENT, 3);
            assertThat(provider.getLatestCheckpoint(AGENT)).contains(third);
            assertThat(readHead(root, AGENT)).contains(head(3));
            AgentCheckpoint fourth = plant(root, scratch, AGENT, 4);
            assertThat(provider.getLatestCheckpoint(AGENT)).contains(fourth);
        }
    }

    @Test
    void aFirstVersionWrittenWithoutTheHeadIsFoundAfterAllWereDeleted() throws Exception {
        try (var provider = open(root)) {
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 0, "w"));
            provider.deleteCheckpoints(AGENT);
            assertThat(provider.getLatestCheckpoint(AGENT)).isEmpty();
            assertThat(readHead(root, AGENT)).contains(head(HeadState.NONE));
            AgentCheckpoint first = plant(root, scratch, AGENT, 0);
            assertThat(provider.getLatestCheckpoint(AGENT)).contains(first);
        }
    }

    /** Files put into a closed store by hand are seen once a provider opens it (its clean-up checks the head). */
    @Test
    void openingTheStoreInvalidatesAHeadThatMissesAFile() throws Exception {
        try (var provider = open(root)) {
            for (long version = 0; version < 3; version++) {
                provider.saveCheckpoint(AGENT, checkpoint(AGENT, version, "w"));
            }
        }
        AgentCheckpoint planted = plant(root, scratch, AGENT, 8);
        try (var provider = open(root)) {
            assertThat(readHead(root, AGENT)).isEmpty();
            assertThat(readState(root, AGENT)).map(HeadState::latestKnown).contains(false);
            assertThat(provider.getLatestCheckpoint(AGENT)).contains(planted);
            assertThat(readHead(root, AGENT)).contains(head(8));
        }
        try (var provider = open(root)) {
            assertThat(readHead(root, AGENT))
                    .as("a head that is right is left alone")
                    .contains(head(8));
        }
    }

    @Test
    void aWriterKilledBeforePublishingLeavesTheLatestAsItWas() throws Exception {
        try (var provider = open(root)) {
            for (long version = 0; version < 4; version++) {
                provider.saveCheckpoint(AGENT, checkpoint(AGENT, version, "w"));
            }
            writeState(root, AGENT, head(3, deadWriter(8)));
            assertThat(provider.getLatestCheckpoint(AGENT))
                    .map(AgentCheckpoint::version)
                    .contains(3L);
            assertThat(readHead(root, AGENT)).contains(head(3));
            // the next save drops a dead entry as well, folding in its version only if it was published
            writeState(root, AGENT, head(3, deadWriter(8)));
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 4, "w"));
            assertThat(readHead(root, AGENT)).contains(head(4));
        }
    }

    @Test
    void aDeadWritersPublishedVersionIsFoldedInByTheNextSave() throws Exception {
        try (var provider = open(root)) {
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 0, "w"));
            AgentCheckpoint planted = plant(root, scratch, AGENT, 9);
            writeState(root, AGENT, head(0, deadWriter(9)));
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 1, "w"));
            assertThat(readHead(root, AGENT)).contains(head(9));
            assertThat(provider.getLatestCheckpoint(AGENT)).contains(planted);
        }
    }

    static Stream<String> unusableHeads() {
        String valid = new String(HeadFormat.format(head(2)), StandardCharsets.US_ASCII);
        return Stream.of(
                "",
                "garbage",
                "\0".repeat(200),
                valid.substring(0, valid.length() - 5),
                valid.replace("latest 2", "latest 5"), // checksum no longer matches
                valid.replace("latest 2", "latest -5"),
                valid.replace("latest 2", "latest 99999999999999999999"),
                valid + "extra line\n",
                "x".repeat(HeadFormat.MAX_BYTES + 10),
                new String(HeadFormat.format(new HeadState("another-boot", 2, List.of())), StandardCharsets.US_ASCII),
                new String(HeadFormat.format(head(HeadState.UNKNOWN)), StandardCharsets.US_ASCII),
                new String(HeadFormat.format(head(12)), StandardCharsets.US_ASCII)); // no such file
    }

    @ParameterizedTest
    @MethodSource("unusableHeads")
    void anUnusableHeadIsListedAroundAndRebuilt(String content) throws Exception {
        try (var provider = open(root)) {
            for (long version = 0; version < 3; version++) {
                provider.saveCheckpoint(AGENT, checkpoint(AGENT, version, "w"));
            }
            AgentCheckpoint planted = plant(root, scratch, AGENT, 6);
            writeHead(root, AGENT, content);
            assertThat(provider.getLatestCheckpoint(AGENT)).contains(planted);
            assertThat(readHead(root, AGENT)).contains(head(6));
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 7, "w"));
            assertThat(provider.getLatestCheckpoint(AGENT))
                    .map(AgentCheckpoint::version)
                    .contains(7L);
        }
    }

    @ParameterizedTest
    @MethodSource("unusableHeads")
    void anUnusableStateIsRebuiltFromTheListing(String content) throws Exception {
        try (var provider = open(root)) {
            for (long version = 0; version < 3; version++) {
                provider.saveCheckpoint(AGENT, checkpoint(AGENT, version, "w"));
            }
            AgentCheckpoint planted = plant(root, scratch, AGENT, 6);
            Files.writeString(HeadCheckpoints.state(root, AGENT), content, StandardCharsets.US_ASCII);
            Files.delete(HeadCheckpoints.head(root, AGENT));
            assertThat(provider.getLatestCheckpoint(AGENT)).contains(planted);
            assertThat(readHead(root, AGENT)).contains(head(6));
            assertThat(readState(root, AGENT)).contains(head(6));
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 7, "w"));
            assertThat(provider.getLatestCheckpoint(AGENT))
                    .map(AgentCheckpoint::version)
                    .contains(7L);
        }
    }

    @Test
    void aHeadThatIsNotAFileIsNeverAnErrorForReaders() throws Exception {
        try (var provider = open(root)) {
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 0, "w"));
            Path head = HeadCheckpoints.head(root, AGENT);
            Files.delete(head);
            Files.createDirectory(head);
            assertThat(provider.getLatestCheckpoint(AGENT))
                    .map(AgentCheckpoint::version)
                    .contains(0L);
            Files.delete(head);
            Files.createSymbolicLink(
                    head, HeadCheckpoints.directory(root, AGENT).resolve(FileNames.versionFileName(0)));
            assertThat(provider.getLatestCheckpoint(AGENT))
                    .map(AgentCheckpoint::version)
                    .contains(0L);
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 1, "w"));
            assertThat(provider.getLatestCheckpoint(AGENT))
                    .map(AgentCheckpoint::version)
                    .contains(1L);
        }
    }

    @Test
    void deletingTheLatestGivesTheNextLatest() throws Exception {
        try (var provider = open(root)) {
            for (long version = 0; version < 6; version++) {
                provider.saveCheckpoint(AGENT, checkpoint(AGENT, version, "w"));
            }
            // removed outside the provider: the head names a missing file, the read lists
            Files.delete(HeadCheckpoints.directory(root, AGENT).resolve(FileNames.versionFileName(5)));
            assertThat(provider.getLatestCheckpoint(AGENT))
                    .map(AgentCheckpoint::version)
                    .contains(4L);
            assertThat(readHead(root, AGENT)).contains(head(4));

            provider.deleteCheckpointsBefore(AGENT, 2); // keeps the latest: the head stays as it is
            assertThat(readHead(root, AGENT)).contains(head(4));
            assertThat(provider.getLatestCheckpoint(AGENT))
                    .map(AgentCheckpoint::version)
                    .contains(4L);

            provider.deleteCheckpoints(AGENT);
            assertThat(readHead(root, AGENT)).isEmpty();
            assertThat(readState(root, AGENT)).map(HeadState::latestKnown).contains(false);
            assertThat(provider.getLatestCheckpoint(AGENT)).isEmpty();
            assertThat(readHead(root, AGENT)).contains(head(HeadState.NONE));
            assertThat(provider.getLatestCheckpoint(AGENT)).isEmpty();

            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 2, "w"));
            assertThat(provider.getLatestCheckpoint(AGENT))
                    .map(AgentCheckpoint::version)
                    .contains(2L);
            provider.deleteCheckpointsBefore(AGENT, 3);
            assertThat(provider.getLatestCheckpoint(AGENT)).isEmpty();
        }
    }

    @Test
    void filtersUseTheHeadOnlyWhenItsVersionMatches() throws Exception {
        try (var provider = open(root)) {
            for (long version = 0; version < 6; version++) {
                provider.saveCheckpoint(AGENT, checkpoint(AGENT, version, "w"));
            }
            assertThat(provider.getLatestCheckpoint(
                            AGENT, CheckpointFilter.builder().nodeId("odd").build()))
                    .map(AgentCheckpoint::version)
                    .contains(5L);
            assertThat(provider.getLatestCheckpoint(
                            AGENT, CheckpointFilter.builder().nodeId("even").build()))
                    .map(AgentCheckpoint::version)
                    .contains(4L);
            assertThat(provider.getLatestCheckpoint(
                            AGENT, CheckpointFilter.builder().maxVersion(3L).build()))
                    .map(AgentCheckpoint::version)
                    .contains(3L);
            assertThat(readHead(root, AGENT)).contains(head(5));
        }
    }

    @Test
    void anAgentWithoutCheckpointsHasNoLatestAndNoHead() throws Exception {
        try (StorageShell provider = open(root)) {
            assertThat(provider.getLatestCheckpoint("nobody")).isEmpty();
            assertThat(Files.exists(HeadCheckpoints.directory(root, "nobody"))).isFalse();
        }
    }
}
