package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Several provider instances over the same storage act as one store. */
abstract class SharedStorageContract extends Contract {

    SharedStorageContract(KitSession session) {
        super(session);
    }

    @BeforeEach
    void requireSharedStorage() {
        if (!sharesStorage()) {
            Assumptions.abort("shared storage not supported by " + providerName()
                    + ": sharesStorageAcrossInstances() is false, its instances keep separate checkpoints");
        }
    }

    @Test
    @DisplayName("a second instance sees the first one's saves through every read")
    void secondInstanceSeesSaves() {
        String agent = agent("shared");
        var first = provider();
        var saved = List.of(Checkpoints.full(agent, 0), Checkpoints.full(agent, 1));
        saveAll(agent, saved);
        var second = newProvider();
        assertThat(second.getCheckpoints(agent)).containsExactlyElementsOf(saved);
        assertThat(second.getLatestCheckpoint(agent)).contains(saved.get(1));
        var third = Checkpoints.full(agent, 2);
        second.saveCheckpoint(agent, third);
        assertThat(first.getLatestCheckpoint(agent)).contains(third);
        assertThat(first.getCheckpoints(agent)).hasSize(3);
    }

    @Test
    @DisplayName(
            "conflicts are detected across instances, and an identical re-save through another instance is a no-op")
    void conflictsAcrossInstances() {
        String agent = agent("shared-conflict");
        var original = Checkpoints.full(agent, 0);
        provider().saveCheckpoint(agent, original);
        var second = newProvider();
        assertThatThrownBy(() -> second.saveCheckpoint(agent, Checkpoints.simple(agent, 0)))
                .isInstanceOf(CheckpointConflictException.class);
        assertThatThrownBy(() -> second.saveCheckpoint(
                        agent, original.toBuilder().version(5).build()))
                .as("same id at another version")
                .isInstanceOf(CheckpointConflictException.class);
        second.saveCheckpoint(agent, Checkpoints.full(agent, 0));
        assertThat(provider().getCheckpoints(agent)).containsExactly(original);
        assertThat(second.getCheckpoints(agent)).containsExactly(original);
    }

    @Test
    @Timeout(120)
    @DisplayName("16 threads on 4 instances racing at the same version: exactly one wins")
    void raceAcrossInstances() {
        var instances = new ArrayList<PersistenceStorageProvider<CheckpointFilter>>();
        instances.add(provider());
        for (int i = 1; i < 4; i++) {
            instances.add(newProvider());
        }
        ConcurrencyContract.raceForVersions(
                this, agent("shared-race"), racer -> instances.get(racer % instances.size()));
    }

    @Test
    @DisplayName("deletions through one instance are seen by another")
    void deletionsAcrossInstances() {
        String agent = agent("shared-delete");
        saveAll(
                agent,
                List.of(Checkpoints.simple(agent, 0), Checkpoints.simple(agent, 1), Checkpoints.simple(agent, 2)));
        var second = newProvider();
        assertThat(optional("deleteCheckpointsBefore", () -> second.deleteCheckpointsBefore(agent, 2)))
                .isEqualTo(2);
        assertThat(versions(agent, null)).containsExactly(2L);
        assertThat(optional("deleteCheckpoints", () -> second.deleteCheckpoints(agent)))
                .isEqualTo(1);
        assertThat(provider().getCheckpoints(agent)).isEmpty();
        assertThat(provider().getLatestCheckpoint(agent)).isEmpty();
    }

    @Test
    @DisplayName(
            "saves survive closing the instance that made them, and closing one instance leaves the others working")
    void closeOneInstance() throws Exception {
        String agent = agent("shared-close");
        var first = newProvider();
        var checkpoint = Checkpoints.full(agent, 0);
        first.saveCheckpoint(agent, checkpoint);
        var second = newProvider();
        first.close();
        assertThat(second.getCheckpoints(agent)).containsExactly(checkpoint);
        second.saveCheckpoint(agent, Checkpoints.simple(agent, 1));
        assertThat(newProvider().getCheckpoints(agent)).containsExactly(checkpoint, Checkpoints.simple(agent, 1));
    }
}
