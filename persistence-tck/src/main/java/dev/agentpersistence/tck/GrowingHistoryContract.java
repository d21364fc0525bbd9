package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.CheckpointFilter;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A long agent run whose history grows every step reads back exactly, however the provider stores it. */
abstract class GrowingHistoryContract extends Contract {

    GrowingHistoryContract(KitSession session) {
        super(session);
    }

    @Test
    @DisplayName(
            "a 1,000-step run whose history grows by two messages a step reads back exactly: list, latest, filters")
    void thousandSteps() {
        String agent = agent("growing");
        var run = new GrowingRun(agent).save(provider(), 1000);
        assertThat(provider().getCheckpoints(agent)).as("every checkpoint").containsExactlyElementsOf(run.saved());
        assertThat(provider().getLatestCheckpoint(agent)).contains(run.at(999));
        assertThat(provider().getLatestCheckpoint(agent).orElseThrow().messageHistory())
                .hasSize(2000);
        assertThat(provider()
                        .getCheckpoints(
                                agent, CheckpointFilter.builder().limit(10).build()))
                .as("limit 10")
                .containsExactlyElementsOf(run.between(990, 1000));
        assertThat(provider()
                        .getCheckpoints(
                                agent,
                                CheckpointFilter.builder()
                                        .maxVersion(499L)
                                        .limit(3)
                                        .build()))
                .as("maxVersion 499, limit 3")
                .containsExactlyElementsOf(run.between(497, 500));
        assertThat(provider()
                        .getCheckpoints(
                                agent,
                                CheckpointFilter.builder()
                                        .nodeId("act")
                                        .metadata("parity", "odd")
                                        .createdAfter(Checkpoints.createdAt(128))
                                        .createdBefore(Checkpoints.createdAt(136))
                                        .build()))
                .as("node, metadata and time window")
                .containsExactly(run.at(129), run.at(131), run.at(133), run.at(135));
        assertThat(provider()
                        .getLatestCheckpoint(
                                agent,
                                CheckpointFilter.builder().maxVersion(256L).build()))
                .contains(run.at(256));
    }

    @Test
    @DisplayName("checkpoints of a growing run are found by id with their exact history")
    void byId() {
        String agent = agent("growing-by-id");
        var run = new GrowingRun(agent).save(provider(), 300);
        for (long version : new long[] {0, 1, 7, 8, 9, 63, 64, 127, 128, 129, 255, 299}) {
            var found = optional("getCheckpoint", () -> provider().getCheckpoint(agent, "step-" + version));
            assertThat(found).as("step-%d", version).contains(run.at(version));
        }
    }

    @Test
    @DisplayName(
            "a run resumed from its latest checkpoint (another provider instance when storage is shared) continues "
                    + "exactly")
    void resumed() {
        String agent = agent("growing-resumed");
        var first = new GrowingRun(agent).save(provider(), 200);
        var other = sharesStorage() ? newProvider() : provider();
        var latest = other.getLatestCheckpoint(agent).orElseThrow();
        assertThat(latest).isEqualTo(first.at(199));
        var resumed = GrowingRun.resume(latest).save(other, 60);
        var expected = new java.util.ArrayList<>(first.saved());
        expected.addAll(resumed.between(200, 260));
        assertThat(provider().getCheckpoints(agent)).containsExactlyElementsOf(expected);
        assertThat(other.getCheckpoints(
                        agent, CheckpointFilter.builder().limit(1).build()))
                .containsExactly(resumed.at(259));
    }
}
