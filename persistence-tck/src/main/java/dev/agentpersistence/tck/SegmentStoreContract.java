package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.InvalidIdentifierException;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.backend.StoredForm;
import dev.agentpersistence.history.RetentionPolicy;
import dev.agentpersistence.history.RetentionSweeper;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The history segment area of providers whose stored form has one ({@link PersistenceStorageProvider#storedForm()}),
 * and retention over it: a sweep frees what only deleted checkpoints needed and keeps everything a kept checkpoint
 * needs (whatever the layout); aborted with the reason for the others.
 */
abstract class SegmentStoreContract extends Contract {

    SegmentStoreContract(KitSession session) {
        super(session);
    }

    private HistorySegmentStore store() {
        return store(provider());
    }

    @Test
    @DisplayName("a sweep frees the history only an abandoned branch needed and keeps all a kept checkpoint needs")
    void abandonedBranch() {
        var segments = store(provider());
        String agent = agent("retention-branch");
        List<Message> base = Checkpoints.history(90);
        for (int version = 0; version < 30; version++) {
            var checkpoint = Checkpoints.builder(agent, version)
                    .messageHistory(base.subList(0, 30 + 2 * version))
                    .build();
            provider().saveCheckpoint(agent, checkpoint);
        }
        var branch = new ArrayList<>(base.subList(0, 41));
        branch.add(Message.user("a question on another branch").withId("branch-1"));
        var rolledBack = Checkpoints.builder(agent, 30).messageHistory(branch).build();
        provider().saveCheckpoint(agent, rolledBack);
        int before = segments.listSegments(agent).size();

        var sweeper = RetentionSweeper.builder(provider())
                .policy(RetentionPolicy.custom().keepLatest(1).build())
                .gracePeriod(Duration.ZERO) // nothing else writes to this agent meanwhile
                .clock(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(1)))
                .build();
        var report = optional("deleteCheckpointsBefore", () -> sweeper.sweep(List.of(agent)));
        assertThat(report.checkpointsDeleted()).isEqualTo(30);
        assertThat(report.segmentsDeleted())
                .as("segments only the deleted branch needed")
                .isPositive();
        assertThat(segments.listSegments(agent)).hasSizeLessThan(before);
        assertThat(provider().getCheckpoints(agent)).containsExactly(rolledBack);
        if (sharesStorage()) {
            assertThat(newProvider().getCheckpoints(agent)).containsExactly(rolledBack);
        }
        var grown = new ArrayList<>(branch);
        grown.addAll(base.subList(60, 64));
        var next = Checkpoints.builder(agent, 31).messageHistory(grown).build();
        provider().saveCheckpoint(agent, next);
        assertThat(provider().getCheckpoints(agent)).containsExactly(rolledBack, next);
    }

    private HistorySegmentStore store(PersistenceStorageProvider<CheckpointFilter> provider) {
        Optional<StoredForm> form = provider.storedForm().filter(StoredForm::hasSegments);
        if (form.isEmpty()) {
            Assumptions.abort("History segments not supported by " + providerName()
                    + ": the provider keeps whole histories in every checkpoint");
            throw new AssertionError("unreachable");
        }
        return form.get().segments();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static Map<String, String> texts(Map<String, byte[]> segments) {
        var texts = new LinkedHashMap<String, String>();
        segments.forEach((id, content) -> texts.put(id, new String(content, StandardCharsets.UTF_8)));
        return texts;
    }

    private static Instant writtenAt(HistorySegmentStore store, String agent, String segmentId) {
        for (SegmentInfo info : store.listSegments(agent)) {
            if (info.segmentId().equals(segmentId)) {
                return info.writtenAt();
            }
        }
        throw new AssertionError("segment '" + segmentId + "' is not listed for agent '" + agent + "'");
    }

    @Test
    @DisplayName("segments read back byte for byte in one batched call; ids not stored are absent from the answer")
    void putAndGet() {
        var store = store();
        String agent = agent("segments");
        byte[] large = new byte[1024 * 1024 + 7];
        new Random(42).nextBytes(large);
        store.putSegment(agent, "0-16-a", bytes("first ✓"));
        store.putSegment(agent, "16-32-b", large);
        for (int i = 0; i < 100; i++) {
            store.putSegment(agent, "many-" + i, bytes("segment " + i));
        }
        var found = store.getSegments(agent, List.of("0-16-a", "16-32-b", "absent", "many-99"));
        assertThat(found).containsOnlyKeys("0-16-a", "16-32-b", "many-99");
        assertThat(found.get("0-16-a")).isEqualTo(bytes("first ✓"));
        assertThat(found.get("16-32-b")).isEqualTo(large);
        var ids = new ArrayList<String>();
        for (int i = 0; i < 100; i++) {
            ids.add("many-" + i);
        }
        assertThat(store.getSegments(agent, ids)).hasSize(100).containsEntry("many-42", bytes("segment 42"));
        assertThat(store.getSegments(agent, List.of())).isEmpty();
        assertThat(store.getSegments(agent("segments-nobody"), List.of("0-16-a")))
                .isEmpty();
    }

    @Test
    @DisplayName("putting an existing id again keeps the stored bytes and does not move its write time back")
    void putAgain() {
        var store = store();
        String agent = agent("segments-again");
        store.putSegment(agent, "s", bytes("original"));
        Instant first = writtenAt(store, agent, "s");
        store.putSegment(agent, "s", bytes("original"));
        store.putSegment(agent, "s", bytes("other bytes are ignored"));
        assertThat(texts(store.getSegments(agent, List.of("s")))).containsExactly(Map.entry("s", "original"));
        assertThat(writtenAt(store, agent, "s")).isAfterOrEqualTo(first);
        assertThat(store.listSegments(agent)).extracting(SegmentInfo::segmentId).containsExactly("s");
    }

    @Test
    @DisplayName("listSegments names every segment with its write time, sorted by id")
    void list() {
        var store = store();
        String agent = agent("segments-list");
        for (String id : List.of("b", "a", "c-1", "C", "ä")) {
            store.putSegment(agent, id, bytes(id));
        }
        assertThat(store.listSegments(agent))
                .extracting(SegmentInfo::segmentId)
                .containsExactly("C", "a", "b", "c-1", "ä");
        assertThat(store.listSegments(agent))
                .allSatisfy(info -> assertThat(info.writtenAt()).isNotNull());
        assertThat(store.listSegments(agent("segments-list-nobody"))).isEmpty();
    }

    @Test
    @DisplayName("deleteSegments deletes only segments written before the cutoff, counts them and ignores unknown ids")
    void deleteWithCutoff() {
        var store = store();
        String agent = agent("segments-delete");
        store.putSegment(agent, "x", bytes("x"));
        store.putSegment(agent, "y", bytes("y"));
        store.putSegment(agent, "z", bytes("z"));
        Instant x = writtenAt(store, agent, "x");
        assertThat(store.deleteSegments(agent, List.of("x", "y"), x))
                .as("cutoff equal to the write time")
                .isZero();
        assertThat(store.deleteSegments(
                        agent, List.of("x", "y", "unknown"), Instant.now().plusSeconds(3600)))
                .isEqualTo(2);
        assertThat(store.listSegments(agent)).extracting(SegmentInfo::segmentId).containsExactly("z");
        assertThat(store.getSegments(agent, List.of("x", "y", "z"))).containsOnlyKeys("z");
        assertThat(store.deleteSegments(agent, List.of("x"), Instant.now().plusSeconds(3600)))
                .isZero();
        assertThat(store.deleteSegments(agent, List.of(), Instant.now().plusSeconds(3600)))
                .isZero();
        store.putSegment(agent, "x", bytes("again"));
        assertThat(texts(store.getSegments(agent, List.of("x")))).containsExactly(Map.entry("x", "again"));
    }

    @Test
    @DisplayName("segments of different agents, also with prefix-related ids, never mix")
    void isolation() {
        var store = store();
        String a = agent("seg");
        var agents = List.of(a, a + "/b", a + "b", a + "/..", a.toUpperCase(java.util.Locale.ROOT));
        for (String agent : agents) {
            store.putSegment(agent, "same-id", bytes(agent));
        }
        for (String agent : agents) {
            assertThat(texts(store.getSegments(agent, List.of("same-id"))))
                    .containsExactly(Map.entry("same-id", agent));
            assertThat(store.listSegments(agent)).hasSize(1);
        }
        assertThat(store.deleteSegments(a, List.of("same-id"), Instant.now().plusSeconds(3600)))
                .isEqualTo(1);
        for (String agent : agents.subList(1, agents.size())) {
            assertThat(store.getSegments(agent, List.of("same-id"))).containsOnlyKeys("same-id");
        }
    }

    @Test
    @DisplayName("hostile agent and segment ids are stored and found exactly")
    void hostileIds() {
        var store = store();
        String agent = agent("segments-hostile");
        var ids = HostileIds.valid();
        for (String id : ids) {
            store.putSegment(agent, id, bytes("content of " + id));
        }
        var found = texts(store.getSegments(agent, ids));
        assertThat(found).hasSize(ids.size());
        for (String id : ids) {
            assertThat(found).containsEntry(id, "content of " + id);
        }
        assertThat(store.listSegments(agent))
                .extracting(SegmentInfo::segmentId)
                .containsExactlyInAnyOrderElementsOf(ids);
        for (String hostileAgent : HostileIds.agentIds(runId())) {
            store.putSegment(hostileAgent, "../../x", bytes(hostileAgent));
            assertThat(texts(store.getSegments(hostileAgent, List.of("../../x"))))
                    .as("agent %s", hostileAgent)
                    .containsExactly(Map.entry("../../x", hostileAgent));
        }
        assertThat(store.listSegmentAgents()).containsAll(HostileIds.agentIds(runId()));
    }

    @Test
    @DisplayName("listSegmentAgents lists agents with segments, sorted, and drops them once their segments are deleted")
    void segmentAgents() {
        var store = store();
        var agents = List.of(agent("seg-agents-b"), agent("seg-agents-a"), agent("seg-agents-a") + "/x");
        for (String agent : agents) {
            store.putSegment(agent, "s", bytes("s"));
        }
        var listed = store.listSegmentAgents();
        assertThat(listed).isSortedAccordingTo(String::compareTo);
        var mine = listed.stream().filter(id -> id.contains(runId())).toList();
        assertThat(mine).containsExactlyElementsOf(agents.stream().sorted().toList());
        store.deleteSegments(agents.get(0), List.of("s"), Instant.now().plusSeconds(3600));
        assertThat(store.listSegmentAgents()).doesNotContain(agents.get(0)).contains(agents.get(1), agents.get(2));
    }

    @Test
    @DisplayName("invalid agent and segment ids are rejected with InvalidIdentifierException")
    void invalidIds() {
        var store = store();
        String agent = agent("segments-invalid");
        for (String bad : HostileIds.invalid()) {
            assertThatThrownBy(() -> store.putSegment(bad, "s", bytes("x")))
                    .isInstanceOf(InvalidIdentifierException.class);
            assertThatThrownBy(() -> store.putSegment(agent, bad, bytes("x")))
                    .isInstanceOf(InvalidIdentifierException.class);
            assertThatThrownBy(() -> store.getSegments(bad, List.of("s")))
                    .isInstanceOf(InvalidIdentifierException.class);
            assertThatThrownBy(() -> store.getSegments(agent, List.of(bad)))
                    .isInstanceOf(InvalidIdentifierException.class);
            assertThatThrownBy(() -> store.listSegments(bad)).isInstanceOf(InvalidIdentifierException.class);
            assertThatThrownBy(() -> store.deleteSegments(agent, List.of(bad), Instant.now()))
                    .isInstanceOf(InvalidIdentifierException.class);
        }
    }

    @Test
    @DisplayName("a second provider instance over the same storage sees the segments")
    void sharedAcrossInstances() {
        Assumptions.assumeTrue(sharesStorage(), "the provider's instances do not share storage");
        String agent = agent("segments-shared");
        store().putSegment(agent, "s", bytes("shared"));
        assertThat(texts(store(newProvider()).getSegments(agent, List.of("s"))))
                .containsExactly(Map.entry("s", "shared"));
    }

    @Test
    @DisplayName("after close() every segment call throws IllegalStateException")
    void useAfterClose() {
        var provider = newProvider();
        var store = store(provider);
        String agent = agent("segments-closed");
        store.putSegment(agent, "s", bytes("s"));
        provider.close();
        assertThatThrownBy(() -> store.putSegment(agent, "t", bytes("t"))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.getSegments(agent, List.of("s"))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.listSegments(agent)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.deleteSegments(agent, List.of("s"), Instant.now()))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(store::listSegmentAgents).isInstanceOf(IllegalStateException.class);
    }
}
