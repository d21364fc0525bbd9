package dev.agentpersistence.benchmarks.backend;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.benchmarks.raw.RawStore;
import dev.agentpersistence.history.IncrementalHistoryConfig;
import dev.agentpersistence.history.IncrementalHistoryStorageProvider;
import dev.agentpersistence.spi.HistorySegmentStore;
import dev.agentpersistence.spi.PersistenceStorageProvider;

/**
 * Opens one backend for a benchmark: our provider over it, the backend's own client for the raw
 * baseline, and the measure of how many bytes a namespace occupies. A namespace (lower-case letters
 * and digits) separates the data of independent workloads within a run.
 */
public interface BackendDriver {

    /**
     * Our provider over {@code namespace}.
     *
     * @param bulk {@code true} for loading fixtures: the same storage with per-save durability relaxed
     *             where the backend allows it per connection (no fsync, {@code synchronous=OFF},
     *             {@code synchronous_commit=off}); never used for measuring
     */
    PersistenceStorageProvider<CheckpointFilter> open(BenchSettings settings, String namespace, boolean bulk);

    /**
     * Our provider over {@code namespace} as {@link #open} returns it, or wrapped in
     * {@link IncrementalHistoryStorageProvider} when {@code incremental}.
     *
     * @throws UnsupportedOperationException when {@code incremental} and the provider has no history segment store
     */
    default PersistenceStorageProvider<CheckpointFilter> open(BenchSettings settings, String namespace, boolean bulk,
                                                              boolean incremental) {
        PersistenceStorageProvider<CheckpointFilter> provider = open(settings, namespace, bulk);
        if (!incremental) {
            return provider;
        }
        if (!(provider instanceof HistorySegmentStore)) {
            provider.close();
            throw new UnsupportedOperationException(provider + " has no history segment store");
        }
        return IncrementalHistoryStorageProvider.wrap(provider, IncrementalHistoryConfig.ofDefaults(), StoredForm.codec());
    }

    /** Whether our provider over this backend can store histories incrementally (has a history segment store). */
    default boolean supportsIncrementalHistory(BenchSettings settings) {
        try (PersistenceStorageProvider<CheckpointFilter> provider = open(settings, "probe", false)) {
            return provider instanceof HistorySegmentStore;
        }
    }

    /**
     * Brings the namespace to the state a long-running deployment would be in after fixtures were
     * loaded: for the databases, fresh table statistics ({@code ANALYZE}), which autovacuum or the
     * server would otherwise only gather later, leaving the planner to guess.
     */
    default void afterLoad(BenchSettings settings, String namespace) {
    }

    /** How many threads load fixtures concurrently (1 where the backend serializes writes anyway). */
    default int loadThreads() {
        return 1;
    }

    /** Whether stored data outlives the JVM, so later forks of the run can reuse loaded fixtures. */
    default boolean keepsDataAcrossJvms() {
        return true;
    }

    /** The backend's own client writing and reading raw bytes under {@code namespace}. */
    RawStore openRaw(BenchSettings settings, String namespace);

    /** Bytes the namespace occupies in the backend (see the README for what each backend counts), or -1. */
    long bytesStored(BenchSettings settings, String namespace);

    /** Why the backend cannot be used right now (server not answering), or empty when it can. */
    default java.util.Optional<String> unavailable(BenchSettings settings) {
        return java.util.Optional.empty();
    }

    /** Removes everything this run stored in the backend. */
    void cleanUp(BenchSettings settings);
}
