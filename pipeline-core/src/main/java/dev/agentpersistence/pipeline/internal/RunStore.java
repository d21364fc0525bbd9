package dev.agentpersistence.pipeline.internal;

import dev.agentpersistence.PersistenceStorageProvider;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where one pipeline's queue of runs is kept: the store's native queue ({@link RunItems}) when the provider has one,
 * else a log of checkpoints ({@link RunQueue}). Both decide every change on the run as the store holds it and write it
 * by compare-and-set, so any number of workers in any number of processes share one queue. Thread-safe.
 */
public interface RunStore {

    /** The queue of {@code pipeline} in {@code storage}: native where the provider has queues. */
    static RunStore of(PersistenceStorageProvider<?> storage, String pipeline, Clock clock) {
        var log = new RunQueue(storage, pipeline, clock);
        return storage.queues()
                .<RunStore>map(queues -> new RunItems(queues, pipeline, log, clock))
                .orElse(log);
    }

    /** Every run of the queue, in the order they were submitted. */
    List<RunQueue.Run> runs();

    /** The runs a worker may run at {@code now}, in the order they were submitted. */
    List<RunQueue.Run> runnable(Instant now);

    /**
     * The runs a worker may run at {@code now} as this object last read them, without reading: candidates only, which a
     * worker checks again with {@link #run} once it holds the run's lease.
     */
    List<RunQueue.Run> lastReadRunnable(Instant now);

    /**
     * How many runs wait for a worker at {@code now}: runnable runs nobody holds. A log is not read for it (every claim
     * reads the log, and a log holds no claims, so runs in flight count too); a native queue counts its runnable items
     * at most once per {@link RunItems#DEPTH_EVERY} and answers its last count in between.
     */
    int depth(Instant now);

    /**
     * The runs this worker may take at {@code now}: where the store holds runs (native queues), the oldest runnable run
     * nobody holds, held from other claimers until {@code holdUntil}; elsewhere every runnable run, as
     * {@link #runnable} answers. Candidates only: the run's lease decides who runs it.
     */
    List<RunQueue.Run> claim(Instant now, Instant holdUntil);

    /**
     * Holds run {@code runId} from other claimers until {@code until} (a time not after now ends the hold) where the
     * store holds runs; elsewhere does nothing. A hint that follows the run's lease, never a lock.
     */
    void hold(String runId, Instant until);

    /** The run {@code runId} as the store holds it now. */
    Optional<RunQueue.Run> run(String runId);

    /**
     * Decides on run {@code runId} as the store holds it (empty: not in the queue) and writes the change decided only
     * if the run is still as read; when another writer wrote first, reads again and decides again.
     *
     * @return the result of the decision whose change was written (or that changed nothing)
     * @throws dev.agentpersistence.CheckpointConflictException when other writers kept writing first
     */
    <R> R update(String runId, Function<Optional<RunQueue.Run>, RunQueue.Decision<R>> decide);
}
