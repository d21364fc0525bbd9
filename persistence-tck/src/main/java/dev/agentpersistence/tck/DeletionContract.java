package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.InvalidIdentifierException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code deleteCheckpoints}, {@code deleteCheckpointsBefore} and {@code listAgents}. */
abstract class DeletionContract extends Contract {

    DeletionContract(KitSession session) {
        super(session);
    }

    private int deleteAll(String agent) {
        return optional("deleteCheckpoints", () -> provider().deleteCheckpoints(agent));
    }

    private int deleteBefore(String agent, long version) {
        return optional("deleteCheckpointsBefore", () -> provider().deleteCheckpointsBefore(agent, version));
    }

    private List<String> listAgents() {
        return optional("listAgents", () -> provider().listAgents());
    }

    /** The listed agents of this test (ids containing its run id), in listed order. */
    private List<String> myAgents() {
        var mine = new ArrayList<String>();
        for (String id : listAgents()) {
            if (id.contains(runId())) {
                mine.add(id);
            }
        }
        return mine;
    }

    @Test
    @DisplayName("deleteCheckpoints returns the count, leaves the agent empty and other agents untouched")
    void deleteAgent() {
        String agent = agent("delete");
        String neighbour = agent("delete-neighbour");
        saveAll(agent, List.of(Checkpoints.full(agent, 0), Checkpoints.simple(agent, 1), Checkpoints.simple(agent, 2)));
        var kept = Checkpoints.full(neighbour, 0);
        provider().saveCheckpoint(neighbour, kept);
        assertThat(deleteAll(agent)).isEqualTo(3);
        assertThat(provider().getCheckpoints(agent)).isEmpty();
        assertThat(provider().getLatestCheckpoint(agent)).isEmpty();
        assertThat(provider().getCheckpoints(neighbour)).containsExactly(kept);
        assertThat(deleteAll(agent)).as("deleting again").isZero();
        assertThat(deleteAll(agent("delete-nobody")))
                .as("deleting an unknown agent")
                .isZero();
    }

    @Test
    @DisplayName("after deleteCheckpoints the same versions and ids can be saved again with new content")
    void reuseAfterDelete() {
        String agent = agent("delete-reuse");
        provider().saveCheckpoint(agent, Checkpoints.simple(agent, 0));
        provider().saveCheckpoint(agent, Checkpoints.simple(agent, 1));
        deleteAll(agent);
        var again = Checkpoints.full(agent, 0).toBuilder().checkpointId("cp-1").build();
        provider().saveCheckpoint(agent, again);
        assertThat(provider().getCheckpoints(agent)).containsExactly(again);
    }

    @Test
    @DisplayName("deleteCheckpointsBefore removes versions strictly below, returns the count and keeps the latest")
    void deleteBeforeStrictlyBelow() {
        String agent = agent("retention");
        var all = new ArrayList<AgentCheckpoint>();
        for (long v : new long[] {0, 1, 2, 5, 8, 9}) {
            all.add(Checkpoints.simple(agent, v));
        }
        saveAll(agent, all);
        assertThat(deleteBefore(agent, 5)).isEqualTo(3);
        assertThat(versions(agent, null)).containsExactly(5L, 8L, 9L);
        assertThat(provider().getLatestCheckpoint(agent)).contains(all.get(5));
        assertThat(deleteBefore(agent, 5)).as("repeating the deletion").isZero();
        assertThat(deleteBefore(agent, 0)).isZero();
        assertThat(deleteBefore(agent, 7)).isEqualTo(1);
        assertThat(versions(agent, null)).containsExactly(8L, 9L);
    }

    @Test
    @DisplayName("deleteCheckpointsBefore leaves other agents untouched and handles unknown agents")
    void deleteBeforeOtherAgents() {
        String agent = agent("retention-a");
        String other = agent("retention-a") + "b";
        saveAll(agent, List.of(Checkpoints.simple(agent, 0), Checkpoints.simple(agent, 1)));
        provider().saveCheckpoint(other, Checkpoints.simple(other, 0));
        assertThat(deleteBefore(agent, 1)).isEqualTo(1);
        assertThat(versions(other, null)).containsExactly(0L);
        assertThat(deleteBefore(agent("retention-nobody"), 10)).isZero();
    }

    @Test
    @DisplayName("a checkpoint id removed by deleteCheckpointsBefore can be used again at a new version")
    void reuseIdAfterRetention() {
        String agent = agent("retention-reuse");
        saveAll(agent, List.of(Checkpoints.simple(agent, 0), Checkpoints.simple(agent, 1)));
        deleteBefore(agent, 1);
        var reused = Checkpoints.simple(agent, 0).toBuilder().version(2).build();
        provider().saveCheckpoint(agent, reused);
        assertThat(versions(agent, null)).containsExactly(1L, 2L);
        assertThat(provider().getCheckpoints(agent)).containsExactly(Checkpoints.simple(agent, 1), reused);
    }

    @Test
    @DisplayName(
            "listAgents returns the agents with checkpoints, sorted, without agents whose checkpoints were all deleted")
    void listAgentsSortedAndPruned() {
        var agents = List.of(
                agent("list-b"),
                agent("list-a"),
                agent("list-C"),
                agent("list-a") + "/x",
                agent("list-ä"),
                agent("list-🙂"),
                agent("list-retained"));
        for (String agent : agents) {
            provider().saveCheckpoint(agent, Checkpoints.simple(agent, 0));
        }
        provider().saveCheckpoint(agents.get(6), Checkpoints.simple(agents.get(6), 1));
        var listed = listAgents();
        assertThat(listed).as("listAgents order").isSortedAccordingTo(Comparator.naturalOrder());
        var expected = new ArrayList<>(agents);
        expected.sort(Comparator.naturalOrder());
        assertThat(myAgents()).containsExactlyElementsOf(expected);

        deleteAll(agents.get(0));
        assertThat(deleteBefore(agents.get(1), 1)).isEqualTo(1);
        deleteBefore(agents.get(6), 1);
        expected.remove(agents.get(0));
        expected.remove(agents.get(1));
        assertThat(myAgents())
                .as("agents after deleting all checkpoints of two")
                .containsExactlyElementsOf(expected);
    }

    @Test
    @DisplayName("deletions reject invalid agent ids with InvalidIdentifierException")
    void invalidIds() {
        assertThat(deleteAll(agent("probe"))).isZero();
        assertThat(deleteBefore(agent("probe"), 1)).isZero();
        for (String bad : HostileIds.invalid()) {
            assertThatThrownBy(() -> provider().deleteCheckpoints(bad)).isInstanceOf(InvalidIdentifierException.class);
            assertThatThrownBy(() -> provider().deleteCheckpointsBefore(bad, 1))
                    .isInstanceOf(InvalidIdentifierException.class);
        }
    }
}
