package dev.agentpersistence.tck;

import static dev.agentpersistence.tck.FilterDataset.createdAt;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Every {@link CheckpointFilter} field, alone and combined, selects exactly the documented checkpoints. */
abstract class FilterContract extends Contract {

    FilterContract(KitSession session) {
        super(session);
    }

    private static CheckpointFilter.Builder filter() {
        return CheckpointFilter.builder();
    }

    @Test
    @DisplayName("a null filter and CheckpointFilter.ALL return every checkpoint")
    void nullFilterMeansAll() {
        String agent = agent("filter-null");
        FilterDataset.save(this, agent);
        assertThat(versions(agent, null)).containsExactlyElementsOf(range(0, 12));
        assertThat(versions(agent, CheckpointFilter.ALL)).containsExactlyElementsOf(range(0, 12));
        assertThat(versions(provider().getCheckpoints(agent))).containsExactlyElementsOf(range(0, 12));
    }

    @Test
    @DisplayName("nodeId selects exactly the checkpoints of that node")
    void nodeId() {
        String agent = agent("filter-node");
        FilterDataset.save(this, agent);
        assertThat(versions(agent, filter().nodeId("plan").build())).containsExactly(0L, 3L, 6L, 9L);
        assertThat(versions(agent, filter().nodeId("write").build())).containsExactly(1L, 7L, 10L);
        assertThat(versions(
                        agent,
                        filter().nodeId(AgentCheckpoint.TOMBSTONE_NODE_ID).build()))
                .containsExactly(4L, 11L);
        assertThat(versions(agent, filter().nodeId("Plan").build()))
                .as("node ids are case-sensitive")
                .isEmpty();
        assertThat(versions(agent, filter().nodeId("pla").build()))
                .as("no prefix match")
                .isEmpty();
        assertThat(versions(agent, filter().nodeId("nope").build())).isEmpty();
    }

    @Test
    @DisplayName("createdAfter is inclusive")
    void createdAfterInclusive() {
        String agent = agent("filter-after");
        FilterDataset.save(this, agent);
        assertThat(versions(agent, filter().createdAfter(createdAt(5)).build()))
                .containsExactlyElementsOf(range(5, 12));
        assertThat(versions(
                        agent, filter().createdAfter(createdAt(5).plusNanos(1)).build()))
                .containsExactlyElementsOf(range(6, 12));
        assertThat(versions(
                        agent,
                        filter().createdAfter(createdAt(0).minusSeconds(1)).build()))
                .containsExactlyElementsOf(range(0, 12));
        assertThat(versions(
                        agent, filter().createdAfter(createdAt(11).plusNanos(1)).build()))
                .isEmpty();
    }

    @Test
    @DisplayName("createdBefore is exclusive")
    void createdBeforeExclusive() {
        String agent = agent("filter-before");
        FilterDataset.save(this, agent);
        assertThat(versions(agent, filter().createdBefore(createdAt(5)).build()))
                .containsExactlyElementsOf(range(0, 5));
        assertThat(versions(
                        agent, filter().createdBefore(createdAt(5).plusNanos(1)).build()))
                .containsExactlyElementsOf(range(0, 6));
        assertThat(versions(agent, filter().createdBefore(createdAt(0)).build()))
                .isEmpty();
        assertThat(versions(
                        agent,
                        filter().createdBefore(createdAt(11).plusSeconds(1)).build()))
                .containsExactlyElementsOf(range(0, 12));
    }

    @Test
    @DisplayName("createdAfter and createdBefore compare at nanosecond precision")
    void nanosecondBounds() {
        String agent = agent("filter-nanos");
        Instant t = Instant.parse("2026-05-01T10:00:00.123456789Z");
        var checkpoints = List.of(
                Checkpoints.builder(agent, 0).createdAt(t).build(),
                Checkpoints.builder(agent, 1).createdAt(t.plusNanos(1)).build(),
                Checkpoints.builder(agent, 2).createdAt(t.plusNanos(2)).build(),
                Checkpoints.builder(agent, 3).createdAt(t.plusNanos(1_000)).build());
        saveAll(agent, checkpoints);
        assertThat(versions(agent, filter().createdAfter(t.plusNanos(1)).build()))
                .containsExactly(1L, 2L, 3L);
        assertThat(versions(agent, filter().createdBefore(t.plusNanos(1)).build()))
                .containsExactly(0L);
        assertThat(versions(
                        agent,
                        filter().createdAfter(t.plusNanos(1))
                                .createdBefore(t.plusNanos(2))
                                .build()))
                .containsExactly(1L);
        assertThat(versions(agent, filter().createdAfter(t.plusNanos(3)).build()))
                .containsExactly(3L);
        assertThat(versions(agent, filter().createdBefore(t.plusNanos(999)).build()))
                .containsExactly(0L, 1L, 2L);
        assertThat(provider()
                        .getLatestCheckpoint(
                                agent, filter().createdBefore(t.plusNanos(2)).build()))
                .map(AgentCheckpoint::version)
                .contains(1L);
    }

    @Test
    @DisplayName("createdAfter and createdBefore together select the half-open range [after, before)")
    void createdRange() {
        String agent = agent("filter-range");
        FilterDataset.save(this, agent);
        assertThat(versions(
                        agent,
                        filter().createdAfter(createdAt(3))
                                .createdBefore(createdAt(8))
                                .build()))
                .containsExactlyElementsOf(range(3, 8));
        assertThat(versions(
                        agent,
                        filter().createdAfter(createdAt(3))
                                .createdBefore(createdAt(3))
                                .build()))
                .isEmpty();
        assertThat(versions(
                        agent,
                        filter().createdAfter(createdAt(8))
                                .createdBefore(createdAt(3))
                                .build()))
                .isEmpty();
    }

    @Test
    @DisplayName("maxVersion is inclusive")
    void maxVersionInclusive() {
        String agent = agent("filter-max");
        FilterDataset.save(this, agent);
        assertThat(versions(agent, filter().maxVersion(5L).build())).containsExactlyElementsOf(range(0, 6));
        assertThat(versions(agent, filter().maxVersion(0L).build())).containsExactly(0L);
        assertThat(versions(agent, filter().maxVersion(11L).build())).containsExactlyElementsOf(range(0, 12));
        assertThat(versions(agent, filter().maxVersion(1_000_000L).build())).containsExactlyElementsOf(range(0, 12));
    }

    @Test
    @DisplayName("metadata requires every entry to be present with the same value")
    void metadataAllMustMatch() {
        String agent = agent("filter-metadata");
        FilterDataset.save(this, agent);
        assertThat(versions(agent, filter().metadata("phase", "draft").build())).containsExactly(0L, 1L, 2L, 3L, 5L);
        assertThat(versions(agent, filter().metadata("owner", "alice").build())).containsExactly(0L, 2L, 6L, 8L, 10L);
        assertThat(versions(
                        agent,
                        filter().metadata(Map.of("phase", "final", "owner", "alice"))
                                .build()))
                .containsExactly(6L, 8L, 10L);
        assertThat(versions(
                        agent,
                        filter().metadata(Map.of("phase", "draft", "owner", "carol"))
                                .build()))
                .as("one entry not matching excludes the checkpoint")
                .isEmpty();
        assertThat(versions(agent, filter().metadata("missing", "x").build())).isEmpty();
        assertThat(versions(agent, filter().metadata("phase", "Draft").build()))
                .as("values are case-sensitive")
                .isEmpty();
        assertThat(versions(agent, filter().metadata("phase", "dra").build()))
                .as("no prefix match")
                .isEmpty();
        assertThat(versions(agent, filter().metadata(Map.of()).build())).containsExactlyElementsOf(range(0, 12));
    }

    @Test
    @DisplayName("metadata values with quotes, wildcards and unicode match only exactly")
    void metadataHostileValues() {
        String agent = agent("filter-metadata-hostile");
        var values = List.of("it's", "a\"b", "%", "_", "*", "a%", "ü🙂", "[x]", "{\"k\":1}", "a b", "", "\\");
        var saved = new ArrayList<AgentCheckpoint>();
        for (int v = 0; v < values.size(); v++) {
            saved.add(Checkpoints.builder(agent, v).metadata("k", values.get(v)).build());
        }
        saveAll(agent, saved);
        for (int v = 0; v < values.size(); v++) {
            assertThat(versions(agent, filter().metadata("k", values.get(v)).build()))
                    .as("metadata k=%s", values.get(v))
                    .containsExactly((long) v);
        }
    }

    @Test
    @DisplayName("includeTombstones=false leaves tombstones out; the default includes them")
    void tombstones() {
        String agent = agent("filter-tombstones");
        FilterDataset.save(this, agent);
        assertThat(versions(agent, filter().includeTombstones(false).build()))
                .containsExactly(0L, 1L, 2L, 3L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(versions(agent, filter().includeTombstones(true).build())).containsExactlyElementsOf(range(0, 12));
        assertThat(versions(agent, filter().build())).containsExactlyElementsOf(range(0, 12));
    }

    @Test
    @DisplayName("all fields combined must all match")
    void combined() {
        String agent = agent("filter-combined");
        FilterDataset.save(this, agent);
        assertThat(versions(
                        agent,
                        filter().nodeId("plan")
                                .metadata("phase", "final")
                                .maxVersion(9L)
                                .createdAfter(createdAt(7))
                                .build()))
                .containsExactly(9L);
        assertThat(versions(
                        agent,
                        filter().nodeId("plan")
                                .metadata("phase", "final")
                                .maxVersion(8L)
                                .build()))
                .containsExactly(6L);
        assertThat(versions(
                        agent,
                        filter().metadata("owner", "bob")
                                .createdAfter(createdAt(2))
                                .createdBefore(createdAt(9))
                                .includeTombstones(false)
                                .build()))
                .containsExactly(3L, 5L, 7L);
        assertThat(versions(
                        agent,
                        filter().nodeId("review")
                                .metadata("owner", "alice")
                                .maxVersion(11L)
                                .createdAfter(createdAt(0))
                                .createdBefore(createdAt(11))
                                .includeTombstones(false)
                                .build()))
                .containsExactly(2L, 8L);
        assertThat(versions(
                        agent,
                        filter().nodeId(AgentCheckpoint.TOMBSTONE_NODE_ID)
                                .includeTombstones(false)
                                .build()))
                .isEmpty();
    }

    @Test
    @DisplayName("every combination of field values selects what CheckpointFilter.apply selects")
    void everyCombination() {
        String agent = agent("filter-matrix");
        var all = FilterDataset.save(this, agent);
        var nodes = new ArrayList<String>();
        nodes.add(null);
        nodes.add("plan");
        nodes.add("review");
        var afters = new ArrayList<Instant>();
        afters.add(null);
        afters.add(createdAt(2));
        var befores = new ArrayList<Instant>();
        befores.add(null);
        befores.add(createdAt(10));
        var maxVersions = new ArrayList<Long>();
        maxVersions.add(null);
        maxVersions.add(8L);
        var limits = new ArrayList<Integer>();
        limits.add(null);
        limits.add(2);
        var metadatas = List.<Map<String, String>>of(Map.of(), Map.of("owner", "alice"));
        int checked = 0;
        for (String node : nodes) {
            for (Instant after : afters) {
                for (Instant before : befores) {
                    for (Long max : maxVersions) {
                        for (Integer limit : limits) {
                            for (var metadata : metadatas) {
                                for (boolean tombstones : new boolean[] {true, false}) {
                                    var f = new CheckpointFilter(node, after, before, max, limit, metadata, tombstones);
                                    assertThat(provider().getCheckpoints(agent, f))
                                            .as("%s", f)
                                            .containsExactlyElementsOf(f.apply(all));
                                    checked++;
                                }
                            }
                        }
                    }
                }
            }
        }
        assertThat(checked).isEqualTo(3 * 2 * 2 * 2 * 2 * 2 * 2);
    }
}
