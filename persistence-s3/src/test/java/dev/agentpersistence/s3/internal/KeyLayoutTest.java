package dev.agentpersistence.s3.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.tck.Checkpoints;
import dev.agentpersistence.tck.HostileIds;
import java.time.Instant;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Key names: encoding of ids, inverted versions, index entries and the bounds used as StartAfter. */
class KeyLayoutTest {
    private final KeyLayout layout = new KeyLayout("p");

    @Test
    void invertedVersionsSortNewestFirst() {
        assertThat(KeyLayout.invert(0)).isEqualTo("9223372036854775807");
        assertThat(KeyLayout.invert(Long.MAX_VALUE)).isEqualTo("0000000000000000000");
        for (long v : new long[] {0, 1, 9, 10, 999, 1000, Long.MAX_VALUE - 1}) {
            assertThat(KeyLayout.uninvert(KeyLayout.invert(v))).isEqualTo(v);
            assertThat(KeyLayout.invert(v + 1)).isLessThan(KeyLayout.invert(v));
        }
    }

    @Test
    void segmentsAreHexOrDigestAndDecodeExactly() {
        for (String id : HostileIds.valid()) {
            String segment = KeyParts.encode(id);
            assertThat(segment).matches("[es][0-9a-f]+").hasSizeLessThanOrEqualTo(201);
            if (segment.startsWith("e")) {
                assertThat(KeyParts.decode(segment)).contains(id);
            } else {
                assertThat(segment).hasSize(65);
                assertThat(KeyParts.decode(segment)).isEmpty();
            }
        }
        assertThat(KeyParts.encode("a".repeat(100))).startsWith("e");
        assertThat(KeyParts.encode("a".repeat(101))).startsWith("s");
        assertThat(KeyParts.encode("Agent")).isNotEqualTo(KeyParts.encode("agent"));
        assertThat(KeyParts.decode("ezz")).isEmpty();
    }

    @Test
    void indexEntriesReadBackFromTheirKeys() {
        var checkpoint = Checkpoints.builder("a", 42)
                .createdAt(Instant.ofEpochSecond(-5, 7))
                .nodeId(null)
                .metadata(Map.of("k", "v"))
                .build();
        var entry = IndexEntry.of(TestRecords.stored(checkpoint));
        String key = layout.indexKey("eab", entry);
        assertThat(layout.indexEntryOf("eab", key)).isEqualTo(entry);
        assertThat(entry.createdAt()).isEqualTo(Instant.ofEpochSecond(-5, 7));
        assertThat(IndexEntry.of(TestRecords.stored(AgentCheckpoint.tombstone("a", 3, Instant.EPOCH)))
                        .tombstone())
                .isTrue();
        assertThat(layout.indexEntryOf("eab", layout.indexFolder("eab") + "garbage/x"))
                .isNull();
    }

    @Test
    void startAfterBoundsSelectExactlyTheVersionsAsked() {
        String agent = "eab";
        assertThat(layout.bodiesUpTo(agent, null)).isNull();
        assertThat(layout.bodiesUpTo(agent, 5L))
                .isLessThan(layout.bodyKey(agent, 5))
                .isEqualTo(layout.bodyKey(agent, 6));
        assertThat(layout.bodiesBelow(agent, 5))
                .isLessThan(layout.bodyKey(agent, 4))
                .isEqualTo(layout.bodyKey(agent, 5));
        var at5 = layout.indexKey(agent, IndexEntry.of(TestRecords.stored(Checkpoints.simple("a", 5))));
        var at6 = layout.indexKey(agent, IndexEntry.of(TestRecords.stored(Checkpoints.simple("a", 6))));
        var at4 = layout.indexKey(agent, IndexEntry.of(TestRecords.stored(Checkpoints.simple("a", 4))));
        assertThat(layout.indexUpTo(agent, 5L)).isLessThan(at5).isGreaterThan(at6);
        assertThat(layout.indexBelow(agent, 5)).isGreaterThan(at5).isLessThan(at4);
    }

    @Test
    void thePrefilterNeverRejectsAMatch() {
        var random = new Random(7);
        String[] nodes = {null, "n1", "n2", AgentCheckpoint.TOMBSTONE_NODE_ID};
        int rejected = 0;
        for (int i = 0; i < 2_000; i++) {
            var checkpoint = Checkpoints.builder("a", random.nextInt(20))
                    .createdAt(Instant.ofEpochSecond(1_000 + random.nextInt(20), random.nextInt(3)))
                    .nodeId(nodes[random.nextInt(nodes.length)])
                    .metadata(
                            random.nextBoolean() ? Map.of("k" + random.nextInt(3), "v" + random.nextInt(3)) : Map.of())
                    .build();
            var filter = CheckpointFilter.builder()
                    .nodeId(random.nextInt(3) == 0 ? nodes[random.nextInt(nodes.length)] : null)
                    .createdAfter(
                            random.nextBoolean()
                                    ? Instant.ofEpochSecond(1_000 + random.nextInt(20), random.nextInt(3))
                                    : null)
                    .createdBefore(
                            random.nextBoolean()
                                    ? Instant.ofEpochSecond(1_000 + random.nextInt(20), random.nextInt(3))
                                    : null)
                    .maxVersion(random.nextBoolean() ? (long) random.nextInt(20) : null)
                    .metadata(
                            random.nextInt(3) == 0
                                    ? Map.of("k" + random.nextInt(3), "v" + random.nextInt(3))
                                    : Map.of())
                    .includeTombstones(random.nextBoolean())
                    .build();
            boolean candidate = IndexEntry.prefilter(filter).test(IndexEntry.of(TestRecords.stored(checkpoint)));
            if (filter.matches(checkpoint)) {
                assertThat(candidate).as("%s against %s", checkpoint, filter).isTrue();
            } else if (!candidate) {
                rejected++;
            }
        }
        assertThat(rejected).as("non-matches rejected from the key alone").isGreaterThan(1_000);
    }

    @Test
    void queueTimesSortLikeTheNumbersAndLeavesReadBack() {
        long[] times = {Long.MIN_VALUE, -1_000_000_000L, -1, 0, 1, 1_767_323_045_123_456_789L, Long.MAX_VALUE};
        for (int i = 0; i < times.length; i++) {
            String digits = KeyLayout.sortableTime(times[i]);
            assertThat(digits).hasSize(20).containsOnlyDigits();
            assertThat(KeyLayout.ofSortableTime(digits)).isEqualTo(times[i]);
            if (i > 0) {
                assertThat(digits).isGreaterThan(KeyLayout.sortableTime(times[i - 1]));
            }
        }
        var marker = new QueueMarker(-5, KeyParts.encode("run"), "0123456789abcdef", 3, null);
        assertThat(QueueMarker.parse(marker.leaf())).contains(marker);
        var runnable = new QueueMarker(7, KeyParts.encode("a".repeat(200)), "fedcba9876543210", 1, 9L);
        assertThat(QueueMarker.parse(runnable.leaf())).contains(runnable);
        assertThat(QueueMarker.parse("garbage")).isEmpty();
        assertThat(QueueMarker.parse(marker.leaf().replace("0123456789abcdef", "short")))
                .isEmpty();
        var entry = new FinishedEntry(-5, KeyParts.encode("run"));
        assertThat(FinishedEntry.parse(entry.leaf())).contains(entry);
        assertThat(FinishedEntry.parse("12.x")).isEmpty();
        assertThat(layout.queueMarkerKey("eq", marker)).isEqualTo("p/qo/eq/" + marker.leaf());
        assertThat(layout.queueFinishedKey("eq", entry)).isEqualTo("p/qf/eq/" + entry.leaf());
        assertThat(layout.queueItemKey("eq", "ei")).isEqualTo("p/q/eq/ei");
        assertThat(layout.queueHoldKey("eq", "ei")).isEqualTo("p/qh/eq/ei");
    }
}
