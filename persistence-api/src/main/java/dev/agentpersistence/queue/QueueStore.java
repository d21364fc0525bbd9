package dev.agentpersistence.queue;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Queues kept natively by a store: each queue a set of {@link QueueItem items}, each item written by compare-and-set on
 * its own version. Writers of different items never contend; two writers of one item that read the same version cannot
 * both write the next. A store offers it through {@link dev.agentpersistence.PersistenceStorageProvider#queues()} when
 * its backend has one ({@link dev.agentpersistence.backend.StorageBackend#queues()}); pipelines then keep their run
 * queues in it, and otherwise in a log of checkpoints.
 *
 * <p>Queue names and item ids are checked like agent ids. Thread-safe; every method is one atomic step against every
 * other call on the same store, from any process. The conformance kit's queue group checks each rule below.
 */
public interface QueueStore {

    /** Every item of {@code queue}, by {@link QueueItem#submittedAt()} and then id; empty for an unknown queue. */
    List<QueueItem> items(String queue);

    /** The item {@code id} of {@code queue}. */
    Optional<QueueItem> item(String queue, String id);

    /**
     * Up to {@code limit} items of {@code queue} that a worker may take at {@code now} ({@link QueueItem#isRunnableAt})
     * and that nobody {@link #hold holds} at {@code now}, in the order of {@link #items}.
     */
    List<QueueItem> runnable(String queue, Instant now, int limit);

    /**
     * Takes up to {@code limit} of the items {@link #runnable} would answer and holds each until {@code until}, in one
     * step: of callers claiming at once, each gets items no other got (PostgreSQL and MariaDB skip the rows another
     * claim has locked, {@code FOR UPDATE SKIP LOCKED}). A hold only spreads workers over the queue: it changes no
     * version and owns nothing (a lease does).
     */
    List<QueueItem> claim(String queue, Instant now, Instant until, int limit);

    /**
     * Holds item {@code id} until {@code until} (a time not after now ends the hold), so that {@link #runnable} and
     * {@link #claim} pass it over until then; changes no version. Does nothing for an unknown item.
     */
    void hold(String queue, String id, Instant until);

    /**
     * Stores {@code item} when it is the next version of what is stored: version 1 only while the queue has no item of
     * that id, version {@code n} only while the stored item has version {@code n - 1}. Otherwise stores nothing and
     * answers {@code false}: another writer wrote first, and the caller reads the item again. A write whose answer was
     * lost and that is sent again also answers {@code false}.
     *
     * @return whether the item was stored
     */
    boolean write(String queue, QueueItem item);

    /**
     * Deletes the finished items of {@code queue} except the {@code keep} submitted last, and returns how many were
     * deleted. Items not finished are never deleted.
     */
    int deleteFinished(String queue, int keep);
}
