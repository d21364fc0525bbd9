package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.InvalidIdentifierException;
import dev.agentpersistence.PersistenceStorageProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code getCheckpoint} finds a checkpoint by id, and only in its own agent. Every lookup of the kit is in this group,
 * so a provider that leaves {@code getCheckpoint} out loses only these tests.
 */
abstract class LookupContract extends Contract {

    LookupContract(KitSession session) {
        super(session);
    }

    private Optional<AgentCheckpoint> lookup(String agent, String checkpointId) {
        return lookup(provider(), agent, checkpointId);
    }

    private Optional<AgentCheckpoint> lookup(
            PersistenceStorageProvider<CheckpointFilter> provider, String agent, String checkpointId) {
        return optional("getCheckpoint", () -> provider.getCheckpoint(agent, checkpointId));
    }

    @Test
    @DisplayName("getCheckpoint returns the checkpoint saved under that id, equal in every field")
    void present() {
        String agent = agent("lookup");
        var first = Checkpoints.full(agent, 0);
        var second = Checkpoints.full(agent, 1);
        var third = Checkpoints.simple(agent, 2);
        saveAll(agent, List.of(second, third, first));
        assertThat(lookup(agent, "full-0")).contains(first);
        assertThat(lookup(agent, "full-1")).contains(second);
        assertThat(lookup(agent, "cp-2")).contains(third);
    }

    @Test
    @DisplayName("getCheckpoint of an unknown id, or of an agent without checkpoints, is empty")
    void absent() {
        String agent = agent("lookup-absent");
        provider().saveCheckpoint(agent, Checkpoints.simple(agent, 0));
        assertThat(lookup(agent, "cp-1")).isEmpty();
        assertThat(lookup(agent, "CP-0")).as("ids are case-sensitive").isEmpty();
        assertThat(lookup(agent, "cp-")).as("no prefix match").isEmpty();
        assertThat(lookup(agent, "cp-0 ")).as("no trailing-space match").isEmpty();
        assertThat(lookup(agent, "*")).as("no wildcard match").isEmpty();
        assertThat(lookup(agent, "%")).as("no wildcard match").isEmpty();
        assertThat(lookup(agent("lookup-nobody"), "cp-0")).isEmpty();
    }

    @Test
    @DisplayName("getCheckpoint finds only the agent's own checkpoint, also when two agents use the same id")
    void otherAgent() {
        String owner = agent("lookup-owner");
        String other = agent("lookup-other");
        provider()
                .saveCheckpoint(
                        owner,
                        Checkpoints.simple(owner, 0).toBuilder()
                                .checkpointId("only-owner")
                                .build());
        provider().saveCheckpoint(other, Checkpoints.simple(other, 0));
        assertThat(lookup(other, "only-owner")).isEmpty();
        assertThat(lookup(owner, "only-owner")).isPresent();
        var a = Checkpoints.builder(owner, 1)
                .checkpointId("same-id")
                .metadata("who", "owner")
                .build();
        var b = Checkpoints.builder(other, 7)
                .checkpointId("same-id")
                .metadata("who", "other")
                .build();
        provider().saveCheckpoint(owner, a);
        provider().saveCheckpoint(other, b);
        assertThat(lookup(owner, "same-id")).contains(a);
        assertThat(lookup(other, "same-id")).contains(b);
        assertThat(lookup(owner + "/x", "same-id")).isEmpty();
    }

    @Test
    @DisplayName("getCheckpoint finds hostile checkpoint ids exactly, also in agents with hostile ids")
    void hostileIds() {
        String agent = agent("lookup-hostile");
        var ids = HostileIds.valid();
        var saved = new ArrayList<AgentCheckpoint>();
        for (int v = 0; v < ids.size(); v++) {
            saved.add(Checkpoints.builder(agent, v).checkpointId(ids.get(v)).build());
        }
        saveAll(agent, saved);
        for (var checkpoint : saved) {
            assertThat(lookup(agent, checkpoint.checkpointId()))
                    .as("checkpoint id '%s'", checkpoint.checkpointId())
                    .contains(checkpoint);
        }
        assertThat(lookup(agent, "etc/passwd")).isEmpty();
        assertThat(lookup(agent, "b")).isEmpty();
        var agents = HostileIds.agentIds(runId());
        for (int i = 0; i < agents.size(); i++) {
            String hostileAgent = agents.get(i);
            var checkpoint = Checkpoints.builder(hostileAgent, 0)
                    .checkpointId(ids.get(i % ids.size()))
                    .build();
            provider().saveCheckpoint(hostileAgent, checkpoint);
            assertThat(lookup(hostileAgent, checkpoint.checkpointId()))
                    .as("agent '%s'", hostileAgent)
                    .contains(checkpoint);
        }
    }

    @Test
    @DisplayName("getCheckpoint finds tombstones and checkpoints at versions beyond int range")
    void tombstonesAndLargeVersions() {
        String agent = agent("lookup-special");
        var large = Checkpoints.simple(agent, 4_294_967_297L);
        var tombstone = AgentCheckpoint.tombstone(agent, 4_294_967_298L, Checkpoints.createdAt(9));
        saveAll(agent, List.of(large, tombstone));
        assertThat(lookup(agent, large.checkpointId())).contains(large);
        assertThat(lookup(agent, tombstone.checkpointId())).contains(tombstone);
    }

    @Test
    @DisplayName("a checkpoint that lost a conflict cannot be found by its id")
    void conflictLoser() {
        String agent = agent("lookup-conflict");
        provider().saveCheckpoint(agent, Checkpoints.simple(agent, 0));
        try {
            provider()
                    .saveCheckpoint(
                            agent,
                            Checkpoints.simple(agent, 0).toBuilder()
                                    .checkpointId("loser")
                                    .build());
        } catch (dev.agentpersistence.CheckpointConflictException expected) {
            // the conflict itself is checked by the Conflicts group
        }
        assertThat(lookup(agent, "loser")).isEmpty();
        assertThat(lookup(agent, "cp-0")).contains(Checkpoints.simple(agent, 0));
    }

    @Test
    @DisplayName(
            "getCheckpoint finds nothing after deleteCheckpoints or deleteCheckpointsBefore, and finds ids saved again")
    void afterDeletion() {
        String agent = agent("lookup-deleted");
        saveAll(
                agent,
                List.of(Checkpoints.simple(agent, 0), Checkpoints.simple(agent, 1), Checkpoints.simple(agent, 2)));
        assertThat(optional("deleteCheckpointsBefore", () -> provider().deleteCheckpointsBefore(agent, 2)))
                .isEqualTo(2);
        assertThat(lookup(agent, "cp-0")).isEmpty();
        assertThat(lookup(agent, "cp-1")).isEmpty();
        assertThat(lookup(agent, "cp-2")).contains(Checkpoints.simple(agent, 2));
        var reused = Checkpoints.simple(agent, 0).toBuilder().version(3).build();
        provider().saveCheckpoint(agent, reused);
        assertThat(lookup(agent, "cp-0")).contains(reused);
        assertThat(optional("deleteCheckpoints", () -> provider().deleteCheckpoints(agent)))
                .isEqualTo(2);
        assertThat(lookup(agent, "cp-0")).isEmpty();
        assertThat(lookup(agent, "cp-2")).isEmpty();
    }

    @Test
    @DisplayName("getCheckpoint rejects invalid agent ids with InvalidIdentifierException")
    void invalidAgentIds() {
        assertThat(lookup(agent("probe"), "cp-0")).isEmpty();
        for (String bad : HostileIds.invalid()) {
            assertThatThrownBy(() -> provider().getCheckpoint(bad, "cp-0"))
                    .as("getCheckpoint(%s, cp-0)", IdentifierContract.printable(bad))
                    .isInstanceOf(InvalidIdentifierException.class);
        }
    }

    @Test
    @DisplayName("a second instance over the same storage finds checkpoints by id")
    void secondInstance() {
        if (!sharesStorage()) {
            Assumptions.abort("shared storage not supported by " + providerName()
                    + ": sharesStorageAcrossInstances() is false, its instances keep separate checkpoints");
        }
        String agent = agent("lookup-shared");
        var checkpoint = Checkpoints.full(agent, 0);
        provider().saveCheckpoint(agent, checkpoint);
        assertThat(lookup(newProvider(), agent, "full-0")).contains(checkpoint);
    }
}
