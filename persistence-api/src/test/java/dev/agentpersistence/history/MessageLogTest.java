package dev.agentpersistence.history;

import static dev.agentpersistence.history.RetentionSweeperTest.checkpoint;
import static dev.agentpersistence.history.RetentionSweeperTest.grow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.storage.MapBackend;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The message log layout: each message stored once, every version readable, reads in few round trips. */
class MessageLogTest {
    private static final Instant T0 = Instant.parse("2026-03-14T15:09:26.535897932Z");

    private final MutableClock clock = new MutableClock(T0.plusSeconds(1000));
    private final MapBackend backend = new MapBackend(clock);
    private final StorageShell storage = shell();

    private StorageShell shell() {
        return logShell(backend, clock);
    }

    /** A shell in the message log layout over {@code backend}, with a grace period of 5 minutes. */
    static StorageShell logShell(MapBackend backend, java.time.Clock clock) {
        return StorageShell.builder(backend)
                .clock(clock)
                .settings(StorageSettings.custom()
                        .history(IncrementalHistoryConfig.custom()
                                .gracePeriod(Duration.ofMinutes(5))
                                .build())
                        .build())
                .build();
    }

    private HistorySegmentStore segments() {
        return backend.segments().orElseThrow();
    }

    private List<String> entries(String agent) {
        return segments().listSegments(agent).stream()
                .map(SegmentInfo::segmentId)
                .toList();
    }

    private List<AgentCheckpoint> run(String agent, int steps) {
        return RetentionSweeperTest.run(storage, agent, steps);
    }

    @Test
    void anExtendingSaveWritesOnlyItsNewMessagesAndEveryVersionReadsBack() {
        var saved = run("a", 40);
        // steps 0-6 stay inline (under 16 messages); step 7 writes [0, 16); each later step its 2 new messages
        List<String> ids = entries("a");
        assertThat(ids).hasSize(33);
        assertThat(ids).filteredOn(id -> id.startsWith("0-16-")).hasSize(1);
        assertThat(ids.stream().filter(id -> !id.startsWith("0-16-"))).allSatisfy(id -> {
            String[] parts = id.split("-");
            assertThat(Integer.parseInt(parts[1]) - Integer.parseInt(parts[0])).isEqualTo(2);
        });
        assertThat(storage.getCheckpoints("a")).containsExactlyElementsOf(saved);
        assertThat(shell().getCheckpoints("a")).as("read by a new shell").containsExactlyElementsOf(saved);
    }

    @Test
    void aColdReadOfALongHistoryListsOnceAndFetchesOnce() {
        var saved = run("a", 500); // 1,000 messages in 493 entries
        var cold = shell();
        int before = backend.segmentReads();
        assertThat(cold.getLatestCheckpoint("a", CheckpointFilter.ALL)).contains(saved.get(499));
        assertThat(backend.segmentReads() - before).as("listing + fetch").isEqualTo(2);
        before = backend.segmentReads();
        assertThat(cold.getLatestCheckpoint("a", CheckpointFilter.ALL)).contains(saved.get(499));
        assertThat(backend.segmentReads() - before).as("from the cache").isZero();
        var next = checkpoint("a", 500, grow(saved.get(499).messageHistory(), 500, 5));
        cold.saveCheckpoint("a", next);
        assertThat(storage.getLatestCheckpoint("a", CheckpointFilter.ALL)).contains(next);
        assertThat(storage.getCheckpoints("a").get(250)).isEqualTo(saved.get(250));
    }

    @Test
    void aRollbackRewritesFromTheLastSharedEntryAndCollectionFreesTheAbandonedBranch() {
        var saved = run("a", 30);
        var branch = new ArrayList<>(saved.get(9).messageHistory().subList(0, 19)); // inside the entry [18, 20)
        branch.add(Message.user("another question"));
        var rolledBack = checkpoint("a", 30, branch);
        storage.saveCheckpoint("a", rolledBack);
        assertThat(entries("a"))
                .hasSize(24)
                .filteredOn(id -> id.startsWith("18-20-"))
                .hasSize(2);
        assertThat(storage.getCheckpoints("a")).endsWith(saved.get(29), rolledBack);

        var sweeper = RetentionSweeper.builder(storage)
                .clock(clock)
                .policy(RetentionPolicy.custom().keepLatest(1).build())
                .build();
        assertThat(sweeper.sweep().segmentsDeleted())
                .as("within the grace period")
                .isZero();
        clock.advance(Duration.ofMinutes(6));
        var report = sweeper.sweep();
        assertThat(report.segmentsDeleted())
                .as("the old branch from message 18 on")
                .isEqualTo(21);
        assertThat(entries("a")).as("[0, 16), [16, 18) and the new [18, 20)").hasSize(3);
        assertThat(shell().getCheckpoints("a")).containsExactly(rolledBack);
    }

    @Test
    void aMissingOrPlantedEntryIsACorruptCheckpointNamingIt() {
        run("a", 20);
        String middle = entries("a").stream()
                .filter(id -> id.startsWith("20-22-"))
                .findFirst()
                .orElseThrow();
        String other = entries("a").stream()
                .filter(id -> id.startsWith("22-24-"))
                .findFirst()
                .orElseThrow();
        byte[] planted = segments().getSegments("a", List.of(other)).get(other);
        segments().deleteSegments("a", List.of(middle), clock.instant().plusSeconds(1));
        assertThatThrownBy(() -> shell().getLatestCheckpoint("a", CheckpointFilter.ALL))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("before 22")
                .hasMessageContaining("missing");
        segments().putSegment("a", middle, planted);
        assertThatThrownBy(() -> shell().getLatestCheckpoint("a", CheckpointFilter.ALL))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining(middle);
    }

    @Test
    void aSaveAfterTheRefreshIntervalPutsItsPathAgainSoCollectedEntriesComeBack() {
        var saved = run("a", 12);
        String first = entries("a").get(0);
        segments().deleteSegments("a", List.of(first), clock.instant().plusSeconds(1)); // as a racing collection would
        clock.advance(Duration.ofMinutes(2)); // past a quarter of the grace period
        var next = checkpoint("a", 12, grow(saved.get(11).messageHistory(), 12, 5));
        storage.saveCheckpoint("a", next);
        assertThat(entries("a")).contains(first);
        assertThat(shell().getLatestCheckpoint("a", CheckpointFilter.ALL)).contains(next);
    }
}
