package dev.agentpersistence.inmemory;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.inmemory.internal.InMemoryStorageBackend;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;
import java.time.Clock;

/**
 * The in-memory provider passes the conformance kit. Its instances do not share storage, so the providers of one test
 * are shells over one backend, created with the test's first provider: the read matrix writes with one configuration
 * and reads with every other. Each shell closing leaves the others working; the records go when the last one closes,
 * after the test.
 */
class InMemoryStorageProviderTest extends StorageProviderCompatibilityKit {
    private InMemoryStorageBackend backend;

    /** The test's backend, for one more shell. */
    protected final synchronized InMemoryStorageBackend backend() {
        if (backend == null) {
            backend = new InMemoryStorageBackend(Clock.systemUTC());
            return backend;
        }
        return backend.share();
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return StorageShell.builder(backend())
                .settings(StorageSettings.ofDefaults())
                .clock(Clock.systemUTC())
                .build();
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider(StorageSettings settings) {
        return StorageShell.builder(backend()).settings(settings).build();
    }

    @Override
    protected boolean sharesStorageAcrossInstances() {
        return false;
    }

    @Override
    protected dev.agentpersistence.tck.AbsentStore absentStore() {
        org.junit.jupiter.api.Assumptions.abort(
                "the in-memory provider creates its store in the heap when it opens: no store can be missing");
        throw new AssertionError("unreachable");
    }

    @Override
    protected byte[] dumpStorage() {
        org.junit.jupiter.api.Assumptions.abort(
                "the in-memory provider keeps checkpoints in the heap: nothing is at rest");
        throw new AssertionError("unreachable");
    }
}
