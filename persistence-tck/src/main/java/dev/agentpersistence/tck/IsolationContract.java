package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Agents never see each other's checkpoints, also when one id is a prefix of another. */
abstract class IsolationContract extends Contract {

    IsolationContract(KitSession session) {
        super(session);
    }

    /** An agent id, agents whose ids extend it, and an agent whose id is a prefix of it. */
    private List<String> prefixFamily() {
        String a = agent("family");
        return List.of(
                a,
                a + "/b",
                a + "b",
                a + "_b",
                a + "-b",
                a + ".b",
                a + ":b",
                a + "/",
                a + "*",
                a + "%",
                a.substring(0, a.length() - 1));
    }

    /** Saves two checkpoints per agent, each with content naming the agent; returns them per agent. */
    private List<List<AgentCheckpoint>> saveFamily(List<String> agents) {
        var saved = new ArrayList<List<AgentCheckpoint>>();
        for (String agent : agents) {
            var mine = List.of(
                    Checkpoints.builder(agent, 0).metadata("owner", agent).build(),
                    Checkpoints.builder(agent, 1)
                            .metadata("owner", agent)
                            .nodeId("n-" + agent)
                            .build());
            saveAll(agent, mine);
            saved.add(mine);
        }
        return saved;
    }

    @Test
    @DisplayName("two agents each see only their own checkpoints, even with the same ids and versions")
    void twoAgents() {
        String first = agent("first");
        String second = agent("second");
        var a = Checkpoints.builder(first, 0)
                .checkpointId("same-id")
                .metadata("who", "first")
                .build();
        var b = Checkpoints.builder(second, 0)
                .checkpointId("same-id")
                .metadata("who", "second")
                .build();
        provider().saveCheckpoint(first, a);
        provider().saveCheckpoint(second, b);
        provider().saveCheckpoint(first, Checkpoints.simple(first, 1));
        assertThat(provider().getCheckpoints(first)).containsExactly(a, Checkpoints.simple(first, 1));
        assertThat(provider().getCheckpoints(second)).containsExactly(b);
        assertThat(provider().getLatestCheckpoint(second)).contains(b);
    }

    @Test
    @DisplayName("agents whose ids are prefixes of each other (a, a/b, ab, a_b, a*, a%, …) stay separate")
    void prefixes() {
        var agents = prefixFamily();
        var saved = saveFamily(agents);
        for (int i = 0; i < agents.size(); i++) {
            String agent = agents.get(i);
            assertThat(provider().getCheckpoints(agent))
                    .as("checkpoints of '%s'", agent)
                    .containsExactlyElementsOf(saved.get(i));
            assertThat(provider().getLatestCheckpoint(agent))
                    .as("latest of '%s'", agent)
                    .contains(saved.get(i).get(1));
            assertThat(provider()
                            .getCheckpoints(
                                    agent,
                                    dev.agentpersistence.CheckpointFilter.builder()
                                            .limit(1)
                                            .build()))
                    .as("limit 1 of '%s'", agent)
                    .containsExactly(saved.get(i).get(1));
        }
    }

    @Test
    @DisplayName("deleting one agent's checkpoints leaves agents with prefix-related ids untouched")
    void deletionStaysInside() {
        var agents = prefixFamily();
        var saved = saveFamily(agents);
        assertThat(optional("deleteCheckpoints", () -> provider().deleteCheckpoints(agents.get(0))))
                .isEqualTo(2);
        assertThat(optional("deleteCheckpointsBefore", () -> provider().deleteCheckpointsBefore(agents.get(1), 1)))
                .isEqualTo(1);
        assertThat(provider().getCheckpoints(agents.get(0))).isEmpty();
        assertThat(provider().getCheckpoints(agents.get(1)))
                .containsExactly(saved.get(1).get(1));
        for (int i = 2; i < agents.size(); i++) {
            assertThat(provider().getCheckpoints(agents.get(i)))
                    .as("checkpoints of '%s'", agents.get(i))
                    .containsExactlyElementsOf(saved.get(i));
        }
    }
}
