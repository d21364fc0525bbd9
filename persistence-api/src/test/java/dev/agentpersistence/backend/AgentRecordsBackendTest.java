package dev.agentpersistence.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.backend.AgentRecordsBackend.Area;
import dev.agentpersistence.history.MutableClock;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The operations the base builds on read, update and agents, over a map in the heap. */
class AgentRecordsBackendTest {
    private static final Instant T0 = Instant.parse("2026-01-02T03:04:05.123456789Z");

    /** Each agent's records as one map value; the first update can be made to lose a race once. */
    private static final class HeapRecords extends AgentRecordsBackend {
        private final Map<Area, Map<String, List<StoredCheckpoint>>> values =
                Map.of(Area.CHECKPOINTS, new TreeMap<>(), Area.SEGMENTS, new TreeMap<>());
        private final MutableClock clock;
        private boolean loseNextRace;

        private HeapRecords(MutableClock clock, long maxCheckpointSize) {
            super(clock, maxCheckpointSize);
            this.clock = clock;
        }

        @Override
        protected synchronized List<StoredCheckpoint> read(Area area, String agentId) {
            return values.get(area).getOrDefault(agentId, List.of());
        }

        @Override
        protected synchronized int update(Area area, String agentId, UnaryOperator<List<StoredCheckpoint>> change) {
            List<StoredCheckpoint> before = read(area, agentId);
            if (loseNextRace) { // a compare-and-set store: the change ran on a stale value, then runs again
                loseNextRace = false;
                change.apply(List.of());
            }
            List<StoredCheckpoint> after = change.apply(before);
            if (after.isEmpty()) {
                values.get(area).remove(agentId);
            } else {
                values.get(area).put(agentId, after);
            }
            return before.size() - after.size();
        }

        @Override
        protected synchronized Collection<String> agents(Area area) {
            return Set.copyOf(values.get(area).keySet());
        }

        @Override
        public void checkHealth() {}

        @Override
        protected String location(Area area, String agentId, String id) {
            return "heap " + area + " " + agentId + "/" + id;
        }
    }

    private static StoredCheckpoint record(String agent, String id, long version) {
        return new StoredCheckpoint(
                agent, id, version, T0.plusSeconds(version), null, "n" + version % 2, false, Map.of(), new byte[] {
                    (byte) version
                });
    }

    @Test
    void insertsUnlessTheVersionOrTheIdIsTakenAndListsAscendingNewestLimit() {
        var backend = new HeapRecords(new MutableClock(T0), Long.MAX_VALUE);
        for (long v : new long[] {2, 0, 1}) {
            assertThat(backend.insert(record("a", "cp-" + v, v)).inserted()).isTrue();
        }
        var clash = backend.insert(record("a", "cp-1", 0));
        assertThat(clash.inserted()).isFalse();
        assertThat(clash.existing()).extracting(StoredDocument::checkpointId).containsExactlyInAnyOrder("cp-0", "cp-1");
        assertThat(backend.list("a", CheckpointFilter.builder().limit(2).build()))
                .extracting(StoredDocument::version)
                .containsExactly(1L, 2L);
        assertThat(backend.latest("a", CheckpointFilter.builder().nodeId("n0").build()))
                .map(StoredDocument::version)
                .contains(2L);
        assertThat(backend.find("a", "cp-1")).map(StoredDocument::version).contains(1L);
        assertThat(backend.find("b", "cp-1")).isEmpty();
        backend.insert(record("b", "cp-0", 0));
        assertThat(backend.listAgents()).containsExactly("a", "b");
        assertThat(backend.deleteBefore("a", 2)).isEqualTo(2);
        assertThat(backend.deleteAll("a")).isEqualTo(1);
        assertThat(backend.listAgents()).containsExactly("b");
    }

    @Test
    void anInsertRetriedAfterALostRaceReportsWhatTheLastAttemptFound() {
        var backend = new HeapRecords(new MutableClock(T0), Long.MAX_VALUE);
        backend.insert(record("a", "cp-0", 0));
        backend.loseNextRace = true;
        var result = backend.insert(record("a", "cp-x", 0));
        assertThat(result.inserted()).isFalse();
        assertThat(result.existing()).extracting(StoredDocument::checkpointId).containsExactly("cp-0");
        assertThat(backend.list("a", CheckpointFilter.builder().build())).hasSize(1);
    }

    @Test
    void aSegmentPutAgainKeepsItsBytesAndTakesTheClocksTime() {
        var backend = new HeapRecords(new MutableClock(T0), Long.MAX_VALUE);
        backend.putSegment("a", "s-1", new byte[] {1});
        backend.putSegment("a", "s-0", new byte[] {0});
        backend.clock.advance(Duration.ofMinutes(1));
        backend.putSegment("a", "s-1", new byte[] {9});
        assertThat(backend.getSegments("a", List.of("s-1", "missing")))
                .containsOnlyKeys("s-1")
                .hasEntrySatisfying("s-1", bytes -> assertThat(bytes).containsExactly(1));
        assertThat(backend.listSegments("a"))
                .containsExactly(new SegmentInfo("s-0", T0), new SegmentInfo("s-1", T0.plus(Duration.ofMinutes(1))));
        assertThat(backend.deleteSegments("a", List.of("s-0", "s-1"), T0.plusSeconds(1)))
                .isEqualTo(1);
        assertThat(backend.listSegmentAgents()).containsExactly("a");
        assertThat(backend.deleteSegments("a", List.of("s-1"), T0.plus(Duration.ofHours(1))))
                .isEqualTo(1);
        assertThat(backend.listSegmentAgents()).isEmpty();
    }

    @Test
    void encodedRecordsDecodeWithoutADocumentOverTheMaximumSizeWhichIsThenAnErrorNamingIt() throws Exception {
        var writer = new HeapRecords(new MutableClock(T0), Long.MAX_VALUE);
        var big = record("a", "cp-big", 1).withDocument(new byte[5000]);
        byte[] lines = writer.encode(Area.CHECKPOINTS, List.of(record("a", "cp-0", 0), big, record("a", "cp-2", 2)));
        assertThat(new String(lines, StandardCharsets.UTF_8).lines()).hasSize(3);
        StoredCheckpoint whole = writer.decode(new ByteArrayInputStream(lines)).get(1);
        assertThat(whole.document()).isEqualTo(big.document());
        assertThat(whole.withDocument(big.document())).isEqualTo(big);

        var reader = new HeapRecords(new MutableClock(T0), 4096);
        List<StoredCheckpoint> decoded = reader.decode(new ByteArrayInputStream(lines));
        assertThat(decoded).extracting(StoredCheckpoint::checkpointId).containsExactly("cp-0", "cp-big", "cp-2");
        reader.update(Area.CHECKPOINTS, "a", none -> decoded);
        assertThatThrownBy(() -> reader.find("a", "cp-big"))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("cp-big")
                .hasMessageContaining("heap CHECKPOINTS a/cp-big");
        assertThat(reader.find("a", "cp-2"))
                .map(StoredDocument::document)
                .hasValueSatisfying(d -> assertThat(d).containsExactly(2));
        assertThat(reader.list("a", CheckpointFilter.builder().maxVersion(0L).build()))
                .hasSize(1);
        assertThatThrownBy(() -> reader.encode(Area.CHECKPOINTS, decoded))
                .as("a rewrite never drops it")
                .isInstanceOf(CorruptCheckpointException.class);
    }
}
