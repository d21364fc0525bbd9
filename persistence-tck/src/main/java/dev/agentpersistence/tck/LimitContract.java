package dev.agentpersistence.tck;

import static dev.agentpersistence.tck.FilterDataset.createdAt;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code limit} N keeps the N newest matches, returned in ascending order. */
abstract class LimitContract extends Contract {

    LimitContract(KitSession session) {
        super(session);
    }

    private static CheckpointFilter limit(int n) {
        return CheckpointFilter.builder().limit(n).build();
    }

    @Test
    @DisplayName("limit N keeps the N newest checkpoints and returns them ascending")
    void newestAscending() {
        String agent = agent("limit");
        var checkpoints = new ArrayList<AgentCheckpoint>();
        for (int v = 0; v < 10; v++) {
            checkpoints.add(Checkpoints.simple(agent, v));
        }
        Collections.shuffle(checkpoints, new Random(7));
        saveAll(agent, checkpoints);
        assertThat(versions(agent, limit(3))).containsExactly(7L, 8L, 9L);
        assertThat(versions(agent, limit(1))).containsExactly(9L);
        assertThat(versions(agent, limit(9))).containsExactlyElementsOf(range(1, 10));
    }

    @Test
    @DisplayName("a limit at or above the number of matches returns them all")
    void limitAboveCount() {
        String agent = agent("limit-above");
        saveAll(
                agent,
                List.of(Checkpoints.simple(agent, 0), Checkpoints.simple(agent, 1), Checkpoints.simple(agent, 2)));
        assertThat(versions(agent, limit(3))).containsExactly(0L, 1L, 2L);
        assertThat(versions(agent, limit(50))).containsExactly(0L, 1L, 2L);
        assertThat(versions(agent(("limit-empty")), limit(5))).isEmpty();
    }

    @Test
    @DisplayName("limit counts only matches: it keeps the N newest checkpoints that match the other fields")
    void limitAfterOtherFields() {
        String agent = agent("limit-combined");
        FilterDataset.save(this, agent);
        var f = CheckpointFilter.builder();
        assertThat(versions(agent, f.nodeId("plan").limit(2).build())).containsExactly(6L, 9L);
        f = CheckpointFilter.builder();
        assertThat(versions(agent, f.metadata("phase", "draft").limit(2).build()))
                .containsExactly(3L, 5L);
        f = CheckpointFilter.builder();
        assertThat(versions(agent, f.maxVersion(5L).limit(2).build())).containsExactly(4L, 5L);
        f = CheckpointFilter.builder();
        assertThat(versions(agent, f.createdBefore(createdAt(6)).limit(3).build()))
                .containsExactly(3L, 4L, 5L);
        f = CheckpointFilter.builder();
        assertThat(versions(agent, f.createdAfter(createdAt(2)).limit(20).build()))
                .containsExactlyElementsOf(range(2, 12));
        f = CheckpointFilter.builder();
        assertThat(versions(agent, f.includeTombstones(false).limit(2).build())).containsExactly(9L, 10L);
        f = CheckpointFilter.builder();
        assertThat(versions(
                        agent,
                        f.metadata("owner", "bob")
                                .maxVersion(8L)
                                .includeTombstones(false)
                                .limit(2)
                                .build()))
                .containsExactly(5L, 7L);
        f = CheckpointFilter.builder();
        assertThat(versions(
                        agent,
                        f.nodeId("write")
                                .createdAfter(createdAt(1))
                                .createdBefore(createdAt(10))
                                .limit(1)
                                .build()))
                .containsExactly(7L);
    }

    @Test
    @DisplayName("getLatestCheckpoint with a limit still returns the newest match")
    void latestWithLimit() {
        String agent = agent("limit-latest");
        FilterDataset.save(this, agent);
        assertThat(provider().getLatestCheckpoint(agent, limit(1)))
                .map(AgentCheckpoint::version)
                .contains(11L);
        assertThat(provider()
                        .getLatestCheckpoint(
                                agent,
                                CheckpointFilter.builder()
                                        .nodeId("review")
                                        .limit(3)
                                        .build()))
                .map(AgentCheckpoint::version)
                .contains(8L);
    }
}
