package dev.agentpersistence.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.Message;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.codec.DocumentLayers;
import dev.agentpersistence.codec.EncryptionKeys;
import dev.agentpersistence.history.internal.ForkMarker;
import dev.agentpersistence.storage.MapBackend;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A fork shares its parent's message log: nothing is copied, and the parent's collection keeps what forks use. */
class ForkedLogTest {
    private static final Instant T0 = Instant.parse("2026-03-14T15:09:26.535897932Z");

    private final MutableClock clock = new MutableClock(T0.plusSeconds(1000));
    private final MapBackend backend = new MapBackend(clock);
    private final StorageShell storage = shell();

    private StorageShell shell() {
        return MessageLogTest.logShell(backend, clock);
    }

    private AgentPersistence persistence(StorageShell shell) {
        return AgentPersistence.builder().storage(shell).clock(clock).build();
    }

    private HistorySegmentStore segments() {
        return backend.segments().orElseThrow();
    }

    private List<String> entries(String agent) {
        return segments().listSegments(agent).stream()
                .map(SegmentInfo::segmentId)
                .filter(id -> !ForkMarker.isMarker(id))
                .toList();
    }

    private List<String> markers(String agent) {
        return segments().listSegments(agent).stream()
                .map(SegmentInfo::segmentId)
                .filter(ForkMarker::isMarker)
                .toList();
    }

    private int collect(StorageShell shell, String agent) {
        return shell.storedForm().orElseThrow().collectGarbage(agent, clock.instant());
    }

    /** Saves {@code steps} more checkpoints after {@code from}, two messages each. */
    private static List<AgentCheckpoint> extend(StorageShell shell, AgentCheckpoint from, int steps) {
        var saved = new ArrayList<AgentCheckpoint>();
        List<Message> history = from.messageHistory();
        for (int i = 1; i <= steps; i++) {
            long version = from.version() + i;
            history = RetentionSweeperTest.grow(history, (int) version + 1000, 5);
            var next = from.toBuilder()
                    .checkpointId(from.agentId() + "-cp-" + version)
                    .version(version)
                    .parentCheckpointId(null)
                    .messageHistory(history)
                    .build();
            shell.saveCheckpoint(from.agentId(), next);
            saved.add(next);
        }
        return saved;
    }

    @Test
    void aForkStoresNoCopyOfItsParentsLogAndReadsBackExactlyAlsoInANewShell() {
        var parent = RetentionSweeperTest.run(storage, "parent", 40);
        int parentEntries = entries("parent").size();

        AgentCheckpoint first = persistence(storage).fork("parent", "cp-30", "child");

        assertThat(first.messageHistory()).isEqualTo(parent.get(30).messageHistory());
        assertThat(entries("child")).as("the child's log holds nothing").isEmpty();
        assertThat(markers("parent")).containsExactly(ForkMarker.id("child"));
        assertThat(entries("parent")).hasSize(parentEntries);
        assertThat(storage.getCheckpoints("child")).containsExactly(first);
        assertThat(shell().getCheckpoints("child")).as("read by a new shell").containsExactly(first);

        var later = extend(storage, first, 5);
        assertThat(entries("child")).as("only the child's own new messages").hasSize(5);
        var expected = new ArrayList<>(List.of(first));
        expected.addAll(later);
        assertThat(shell().getCheckpoints("child")).containsExactlyElementsOf(expected);
        assertThat(shell().getCheckpoints("parent")).containsExactlyElementsOf(parent);
    }

    @Test
    void aForkReadsAfterItsParentIsDeletedAndCollectedAndTheRestOfTheParentsLogIsFreed() {
        RetentionSweeperTest.run(storage, "parent", 40);
        AgentCheckpoint first = persistence(storage).fork("parent", "cp-30", "child");
        var later = extend(storage, first, 3);

        storage.deleteCheckpoints("parent");
        clock.advance(Duration.ofMinutes(6));
        var fresh = shell();
        assertThat(collect(fresh, "parent"))
                .as("the entries after message 62 and before the fork")
                .isPositive();

        assertThat(entries("parent"))
                .as("the path of the fork's base, up to message 62")
                .allSatisfy(id -> assertThat(Integer.parseInt(id.split("-")[1])).isLessThanOrEqualTo(62));
        var expected = new ArrayList<>(List.of(first));
        expected.addAll(later);
        assertThat(shell().getCheckpoints("child")).containsExactlyElementsOf(expected);
        assertThat(collect(fresh, "child")).isZero();
        assertThat(shell().getCheckpoints("child")).containsExactlyElementsOf(expected);
    }

    @Test
    void onceItsForksAreGoneTheParentsLogAndMarkersAreCollected() {
        RetentionSweeperTest.run(storage, "parent", 40);
        persistence(storage).fork("parent", "cp-30", "child");
        storage.deleteCheckpoints("child");
        storage.deleteCheckpoints("parent");

        assertThat(collect(storage, "parent")).as("within the grace period").isZero();
        clock.advance(Duration.ofMinutes(6));
        assertThat(collect(shell(), "parent")).isPositive();

        assertThat(segments().listSegments("parent")).isEmpty();
    }

    @Test
    void aForkOfAForkReadsAfterBothAncestorsAreDeletedAndCollected() {
        RetentionSweeperTest.run(storage, "root", 30);
        var persistence = persistence(storage);
        AgentCheckpoint child = persistence.fork("root", "cp-20", "child");
        var childLater = extend(storage, child, 4);
        AgentCheckpoint grandchild = persistence.fork("child", childLater.get(3).checkpointId(), "grandchild");
        AgentCheckpoint ofTheStart = persistence.fork("child", child.checkpointId(), "cousin");

        assertThat(entries("grandchild")).isEmpty();
        assertThat(entries("cousin")).isEmpty();
        assertThat(markers("root"))
                .containsExactlyInAnyOrder(
                        ForkMarker.id("child"), ForkMarker.id("grandchild"), ForkMarker.id("cousin"));
        assertThat(markers("child")).containsExactly(ForkMarker.id("grandchild"));

        storage.deleteCheckpoints("root");
        storage.deleteCheckpoints("child");
        clock.advance(Duration.ofMinutes(6));
        var fresh = shell();
        collect(fresh, "root");
        collect(fresh, "child");

        assertThat(shell().getCheckpoints("grandchild")).containsExactly(grandchild);
        assertThat(shell().getCheckpoints("cousin")).containsExactly(ofTheStart);
        assertThat(grandchild.messageHistory()).isEqualTo(childLater.get(3).messageHistory());
    }

    @Test
    void aYoungMarkerWhoseForkHasNoCheckpointYetKeepsTheWholeParentLog() {
        RetentionSweeperTest.run(storage, "parent", 20);
        storage.deleteCheckpoints("parent");
        segments().putSegment("parent", ForkMarker.id("in-flight"), ForkMarker.content("in-flight"));
        clock.advance(Duration.ofMinutes(6));
        segments().putSegment("parent", ForkMarker.id("in-flight"), ForkMarker.content("in-flight"));
        int before = entries("parent").size();

        assertThat(collect(shell(), "parent")).isZero();
        assertThat(entries("parent")).hasSize(before);
    }

    @Test
    void aForkWithEncryptionReadsItsParentsEntriesUnderTheParentsKey() {
        byte[] key = new byte[32];
        java.util.Arrays.fill(key, (byte) 7);
        var keys = EncryptionKeys.custom().key("k1", key).currentKey("k1").build();
        var encrypted = StorageShell.builder(backend)
                .clock(clock)
                .settings(StorageSettings.custom()
                        .layers(DocumentLayers.custom().encryption(keys).build())
                        .build())
                .build();
        var parent = RetentionSweeperTest.run(encrypted, "parent", 20);

        AgentCheckpoint first = persistence(encrypted).fork("parent", "cp-15", "child");

        assertThat(entries("child")).isEmpty();
        assertThat(StorageShell.builder(backend)
                        .clock(clock)
                        .settings(StorageSettings.custom()
                                .layers(DocumentLayers.custom().encryption(keys).build())
                                .build())
                        .build()
                        .getCheckpoints("child"))
                .containsExactly(first);
        assertThat(first.messageHistory()).isEqualTo(parent.get(15).messageHistory());
    }

    @Test
    void aForkIntoAnotherNamespaceIsStoredAsACopy() {
        var parent = RetentionSweeperTest.run(storage, "parent", 20);

        AgentCheckpoint first = dev.agentpersistence.internal.Forks.firstCheckpoint(
                storage.getCheckpoint("parent", "cp-15").orElseThrow(), "@journal/child", clock.instant());
        storage.saveCheckpoint("@journal/child", first);

        assertThat(entries("@journal/child")).as("a copy in its own log").isNotEmpty();
        assertThat(markers("parent")).isEmpty();
        assertThat(shell().getCheckpoints("@journal/child")).containsExactly(first);
        assertThat(first.messageHistory()).isEqualTo(parent.get(15).messageHistory());
    }
}
