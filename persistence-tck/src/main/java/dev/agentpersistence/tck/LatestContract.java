package dev.agentpersistence.tck;

import static dev.agentpersistence.tck.FilterDataset.createdAt;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code getLatestCheckpoint} returns the matching checkpoint with the highest version. */
abstract class LatestContract extends Contract {

    LatestContract(KitSession session) {
        super(session);
    }

    private Long latest(String agent, CheckpointFilter filter) {
        return provider()
                .getLatestCheckpoint(agent, filter)
                .map(AgentCheckpoint::version)
                .orElse(null);
    }

    @Test
    @DisplayName("an agent without checkpoints has no latest checkpoint")
    void none() {
        String agent = agent("latest-none");
        assertThat(provider().getLatestCheckpoint(agent)).isEmpty();
        assertThat(provider().getLatestCheckpoint(agent, null)).isEmpty();
        assertThat(provider().getLatestCheckpoint(agent, CheckpointFilter.ALL)).isEmpty();
        assertThat(provider().getCheckpoints(agent)).isEmpty();
    }

    @Test
    @DisplayName("the latest is the highest version, not the last saved, and equals what was saved")
    void highestVersion() {
        String agent = agent("latest");
        var v7 = Checkpoints.full(agent, 7);
        saveAll(
                agent,
                List.of(Checkpoints.simple(agent, 3), v7, Checkpoints.simple(agent, 5), Checkpoints.simple(agent, 0)));
        assertThat(provider().getLatestCheckpoint(agent)).contains(v7);
        assertThat(provider().getLatestCheckpoint(agent, null)).contains(v7);
        assertThat(provider().getLatestCheckpoint(agent, CheckpointFilter.ALL)).contains(v7);
    }

    @Test
    @DisplayName(
            "a filter narrows the latest: nodeId, maxVersion, metadata, createdAfter, createdBefore, includeTombstones")
    void filtered() {
        String agent = agent("latest-filter");
        FilterDataset.save(this, agent);
        assertThat(latest(agent, null)).isEqualTo(11L);
        assertThat(latest(agent, CheckpointFilter.builder().nodeId("plan").build()))
                .isEqualTo(9L);
        assertThat(latest(agent, CheckpointFilter.builder().maxVersion(7L).build()))
                .isEqualTo(7L);
        assertThat(latest(
                        agent,
                        CheckpointFilter.builder()
                                .maxVersion(4L)
                                .includeTombstones(false)
                                .build()))
                .isEqualTo(3L);
        assertThat(latest(
                        agent,
                        CheckpointFilter.builder().metadata("phase", "draft").build()))
                .isEqualTo(5L);
        assertThat(latest(
                        agent,
                        CheckpointFilter.builder().createdBefore(createdAt(8)).build()))
                .isEqualTo(7L);
        assertThat(latest(
                        agent,
                        CheckpointFilter.builder()
                                .createdAfter(createdAt(3))
                                .createdBefore(createdAt(4))
                                .build()))
                .isEqualTo(3L);
        assertThat(latest(
                        agent,
                        CheckpointFilter.builder().includeTombstones(false).build()))
                .isEqualTo(10L);
        assertThat(latest(
                        agent,
                        CheckpointFilter.builder()
                                .nodeId("write")
                                .metadata("owner", "bob")
                                .build()))
                .isEqualTo(7L);
    }

    @Test
    @DisplayName("a filter matching nothing gives no latest checkpoint")
    void filterMatchesNothing() {
        String agent = agent("latest-nothing");
        FilterDataset.save(this, agent);
        assertThat(provider()
                        .getLatestCheckpoint(
                                agent, CheckpointFilter.builder().nodeId("nope").build()))
                .isEmpty();
        assertThat(provider()
                        .getLatestCheckpoint(
                                agent,
                                CheckpointFilter.builder()
                                        .createdBefore(createdAt(0))
                                        .build()))
                .isEmpty();
        assertThat(provider()
                        .getLatestCheckpoint(
                                agent,
                                CheckpointFilter.builder()
                                        .metadata("phase", "draft")
                                        .metadata("owner", "carol")
                                        .build()))
                .isEmpty();
    }

    @Test
    @DisplayName("the latest agrees with the last element of getCheckpoints for the same filter")
    void agreesWithList() {
        String agent = agent("latest-agrees");
        var all = FilterDataset.save(this, agent);
        for (var filter : List.of(
                CheckpointFilter.ALL,
                CheckpointFilter.builder().nodeId("review").build(),
                CheckpointFilter.builder()
                        .metadata("owner", "alice")
                        .maxVersion(9L)
                        .build(),
                CheckpointFilter.builder()
                        .includeTombstones(false)
                        .createdBefore(createdAt(11))
                        .build())) {
            var expected = filter.apply(all);
            assertThat(provider().getLatestCheckpoint(agent, filter))
                    .as("%s", filter)
                    .contains(expected.get(expected.size() - 1));
        }
    }
}
