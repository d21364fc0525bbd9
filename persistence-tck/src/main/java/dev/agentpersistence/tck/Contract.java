package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.storage.StorageSettings;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;

/**
 * Base of every contract group of {@link StorageProviderCompatibilityKit}: access to the test's providers and unique
 * agent ids, and helpers shared by the groups.
 */
abstract class Contract {
    private final KitSession session;

    Contract(KitSession session) {
        this.session = session;
    }

    /** The test's main provider. */
    final PersistenceStorageProvider<CheckpointFilter> provider() {
        return session.provider();
    }

    /** Another provider instance over the same storage. */
    final PersistenceStorageProvider<CheckpointFilter> newProvider() {
        return session.newProvider();
    }

    /** A provider over the same storage writing with {@code settings}; aborts when the provider has no such hook. */
    final PersistenceStorageProvider<CheckpointFilter> newProvider(StorageSettings settings) {
        return session.newProvider(settings);
    }

    /** Everything the test's storage holds at rest; aborts when the provider test has no dump hook. */
    final byte[] dump() {
        return session.dump();
    }

    final boolean sharesStorage() {
        return session.sharesStorage();
    }

    /** {@code label} made unique to this test. */
    final String agent(String label) {
        return session.agentId(label);
    }

    final String runId() {
        return session.runId();
    }

    final String providerName() {
        return session.providerName();
    }

    /**
     * Calls an operation the SPI lets a provider leave out ({@code getCheckpoint}, deletions, {@code listAgents});
     * aborts the test, naming the operation and the reason, when it is unsupported.
     */
    final <T> T optional(String operation, Supplier<T> call) {
        try {
            return call.get();
        } catch (UnsupportedOperationException e) {
            Assumptions.abort(operation + " not supported by " + providerName() + ": " + e.getMessage());
            throw new AssertionError("unreachable", e);
        }
    }

    final void saveAll(String agentId, Collection<AgentCheckpoint> checkpoints) {
        var provider = provider();
        for (var checkpoint : checkpoints) {
            provider.saveCheckpoint(agentId, checkpoint);
        }
    }

    /** The versions of {@code agentId}'s checkpoints matching {@code filter}, in the order returned. */
    final List<Long> versions(String agentId, CheckpointFilter filter) {
        return versions(provider().getCheckpoints(agentId, filter));
    }

    static List<Long> versions(List<AgentCheckpoint> checkpoints) {
        var versions = new ArrayList<Long>(checkpoints.size());
        for (var checkpoint : checkpoints) {
            versions.add(checkpoint.version());
        }
        return versions;
    }

    static List<Long> range(long fromInclusive, long toExclusive) {
        var versions = new ArrayList<Long>();
        for (long v = fromInclusive; v < toExclusive; v++) {
            versions.add(v);
        }
        return versions;
    }

    static void assertAscending(List<AgentCheckpoint> checkpoints) {
        assertThat(versions(checkpoints))
                .as("versions must be strictly ascending")
                .isSortedAccordingTo(Comparator.naturalOrder())
                .doesNotHaveDuplicates();
    }
}
