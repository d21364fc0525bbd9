package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.ReadOnlyStorageException;
import dev.agentpersistence.StorageNotFoundException;
import dev.agentpersistence.storage.StorageSettings;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/**
 * A provider opened read-only ({@code agent.persistence.read-only}) reads everything written normally, changes nothing
 * in the store (its {@code dumpStorage()} is the same after reads and after refused writes), refuses every write with a
 * {@link ReadOnlyStorageException}, and over a store that does not exist fails with a {@link StorageNotFoundException}
 * without creating it. Built with {@code createProvider(StorageSettings)}; a test without that hook (or without
 * {@code absentStore()}) shows these tests as skipped with the reason.
 */
abstract class ReadOnlyContract extends Contract {
    private static final StorageSettings READ_ONLY =
            StorageSettings.custom().readOnly(true).build();

    private final KitSession session;

    ReadOnlyContract(KitSession session) {
        super(session);
        this.session = session;
    }

    @Test
    @DisplayName("a read-only provider reads what was written and leaves the store byte for byte unchanged")
    void readsEverythingAndChangesNothing() {
        String agent = agent("read-only");
        var saved = List.of(
                Checkpoints.full(agent, 0),
                Checkpoints.builder(agent, 1).nodeId("review").build(),
                Checkpoints.simple(agent, 2));
        // written and read with every layer, so the reader holds the writer's keys whatever the test's provider writes
        var writer = newProvider(KitSettings.everyLayer());
        saved.forEach(checkpoint -> writer.saveCheckpoint(agent, checkpoint));
        byte[] before = dumpIfAny();

        var reader = newProvider(
                StorageSettings.from(KitSettings.everyLayer()).readOnly(true).build());
        assertThat(reader.getCheckpoints(agent, CheckpointFilter.ALL)).containsExactlyElementsOf(saved);
        assertThat(reader.getLatestCheckpoint(agent, CheckpointFilter.ALL)).contains(saved.get(2));
        assertThat(reader.getCheckpoints(
                        agent, CheckpointFilter.builder().nodeId("review").build()))
                .containsExactly(saved.get(1));
        assertThat(reader.getCheckpoint(agent, saved.get(0).checkpointId())).contains(saved.get(0));
        assertThat(reader.listAgents()).contains(agent);
        assertUnchanged(before, "the store after reads of a read-only provider");

        refused(() -> reader.saveCheckpoint(agent, Checkpoints.simple(agent, 3)));
        refused(() -> reader.saveCheckpoint(agent("fresh"), Checkpoints.simple(agent("fresh"), 0)));
        refused(() -> reader.saveCheckpoints(List.of(Checkpoints.simple(agent, 3))));
        refused(() -> reader.saveCheckpointAfter(agent, Optional.of(saved.get(2)), Checkpoints.simple(agent, 3)));
        refused(() -> reader.deleteCheckpoints(agent));
        refused(() -> reader.deleteCheckpointsBefore(agent, 2));
        refused(reader::deleteExpired);
        assertUnchanged(before, "the store after writes refused by a read-only provider");
        assertThat(writer.getCheckpoints(agent, CheckpointFilter.ALL)).containsExactlyElementsOf(saved);
        assertThat(writer.getLatestCheckpoint(agent("fresh"), CheckpointFilter.ALL))
                .isEmpty();
        if (before == null) {
            Assumptions.abort(
                    "reads and refused writes were checked, but the store's bytes were not compared: " + dumpSkipped);
        }
    }

    private String dumpSkipped;

    /** The store's bytes, or {@code null} (the reason kept) when the test has no dump hook. */
    private byte[] dumpIfAny() {
        try {
            return dump();
        } catch (TestAbortedException e) {
            dumpSkipped = e.getMessage();
            return null;
        }
    }

    private void assertUnchanged(byte[] before, String what) {
        if (before != null) {
            assertThat(dump()).as(what).isEqualTo(before);
        }
    }

    @Test
    @DisplayName("a store that does not exist, opened read-only, is a StorageNotFoundException and is not created")
    void anAbsentStoreIsATypedErrorAndStaysAbsent() throws Exception {
        AbsentStore absent = session.absentStore();
        assertThat(absent.exists()).as("the absent store before the test").isFalse();
        assertThatThrownBy(() -> {
                    PersistenceStorageProvider<CheckpointFilter> reader = absent.open(READ_ONLY);
                    try {
                        AgentCheckpoint latest = reader.getLatestCheckpoint(agent("absent"), CheckpointFilter.ALL)
                                .orElse(null);
                        reader.listAgents();
                        throw new AssertionError("a read-only provider over an absent store answered " + latest);
                    } finally {
                        reader.close();
                    }
                })
                .isInstanceOf(StorageNotFoundException.class)
                .hasMessageContaining("does not exist");
        assertThat(absent.exists())
                .as("the absent store after a read-only open")
                .isFalse();
    }

    private static void refused(Runnable write) {
        assertThatThrownBy(write::run)
                .isInstanceOf(ReadOnlyStorageException.class)
                .hasMessageContaining("read-only");
    }
}
