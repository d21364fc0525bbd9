package dev.agentpersistence.benchmarks.backend;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.benchmarks.raw.RawStore;
import dev.agentpersistence.storage.StorageShell;

/**
 * Opens one backend for a benchmark: our provider over it, the backend's own client for the raw baseline, and the
 * measure of how many bytes a namespace occupies. A namespace (lower-case letters and digits) separates the data of
 * independent workloads within a run.
 */
public interface BackendDriver {

    /** Whether what the providers stored outlives them (not so in the heap, where closing the last one drops it). */
    default boolean keepsDataAfterClose() {
        return true;
    }

    /**
     * The builder of our provider over {@code namespace}, set to write the stored form of
     * {@link BenchmarkedForm#settings}: what {@link #open(BenchSettings, String, boolean, boolean)} builds.
     *
     * @param bulk {@code true} for loading fixtures: the same storage with per-save durability relaxed where the
     *     backend allows it per connection (no fsync, {@code synchronous=OFF}, {@code synchronous_commit=off}); never
     *     used for measuring
     * @param incremental whether long histories are written incrementally (every provider reads both forms)
     */
    StorageShell.Builder builder(BenchSettings settings, String namespace, boolean bulk, boolean incremental);

    /** Our provider over {@code namespace}: {@link #builder} built (same parameters). */
    default PersistenceStorageProvider<CheckpointFilter> open(
            BenchSettings settings, String namespace, boolean bulk, boolean incremental) {
        return builder(settings, namespace, bulk, incremental).build();
    }

    /** As {@link #open(BenchSettings, String, boolean, boolean)} with whole histories in every checkpoint. */
    default PersistenceStorageProvider<CheckpointFilter> open(BenchSettings settings, String namespace, boolean bulk) {
        return open(settings, namespace, bulk, false);
    }

    /** Whether our provider over this backend can store histories incrementally (every built-in one can). */
    default boolean supportsIncrementalHistory(BenchSettings settings) {
        return true;
    }

    /**
     * Brings the namespace to the state a long-running deployment would be in after fixtures were loaded: for the
     * databases, fresh table statistics ({@code ANALYZE}), which autovacuum or the server would otherwise only gather
     * later, leaving the planner to guess.
     */
    default void afterLoad(BenchSettings settings, String namespace) {}

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

    /**
     * Brings the namespace, after its providers are closed, to what the store keeps once it has tidied up as a user
     * would run it, before {@link #bytesStored} is read: SQLite checkpoints and truncates its write-ahead log,
     * PostgreSQL runs a plain {@code VACUUM} on the tables. Default nothing (a store that keeps nothing to tidy, or
     * whose measure does it, as MariaDB's {@code ANALYZE TABLE}).
     */
    default void compact(BenchSettings settings, String namespace) {}

    /**
     * Bytes the namespace holds once compacted as a user would compact it: {@link #compact}, then {@link #bytesStored}.
     */
    default long bytesHeld(BenchSettings settings, String namespace) {
        compact(settings, namespace);
        return bytesStored(settings, namespace);
    }

    /** Why the backend cannot be used right now (server not answering), or empty when it can. */
    default java.util.Optional<String> unavailable(BenchSettings settings) {
        return java.util.Optional.empty();
    }

    /** Removes everything this run stored in the backend. */
    void cleanUp(BenchSettings settings);
}
