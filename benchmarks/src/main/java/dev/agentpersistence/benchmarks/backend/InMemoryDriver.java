package dev.agentpersistence.benchmarks.backend;

import dev.agentpersistence.benchmarks.raw.RawMapStore;
import dev.agentpersistence.benchmarks.raw.RawStore;
import dev.agentpersistence.inmemory.InMemoryStorage;
import dev.agentpersistence.storage.StorageShell;

/**
 * The heap provider. It has no driver underneath; its "raw" store is a map of the encoded bytes, a reference point
 * only: the in-memory provider is held against the in-memory peers instead.
 */
final class InMemoryDriver implements BackendDriver {
    @Override
    public boolean keepsDataAfterClose() {
        return false;
    }

    @Override
    public StorageShell.Builder builder(BenchSettings settings, String namespace, boolean bulk, boolean incremental) {
        return InMemoryStorage.builder()
                .settings(BenchmarkedForm.settings(incremental))
                .clock(java.time.Clock.systemUTC());
    }

    @Override
    public boolean keepsDataAcrossJvms() {
        return false;
    }

    @Override
    public RawStore openRaw(BenchSettings settings, String namespace) {
        return new RawMapStore();
    }

    @Override
    public long bytesStored(BenchSettings settings, String namespace) {
        return -1;
    }

    @Override
    public void cleanUp(BenchSettings settings) {
        // nothing outlives the JVM
    }
}
