package dev.agentpersistence.backend;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.queue.QueueStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A storage technology under the one storage shell ({@link dev.agentpersistence.storage.StorageShell}): stores
 * {@link StoredCheckpoint} records and history segments as opaque bytes, and answers queries on the attributes the
 * shell computed with {@link StoredDocument}s (id, version, bytes). It never sees JSON, never validates ids (every id
 * it gets is valid; it must encode them for its keys or paths) and never decides conflicts: the shell does all of that,
 * the same way for every backend.
 *
 * <p>What a backend must guarantee:
 *
 * <ul>
 *   <li>{@link #insert} is atomic and insert-if-absent on both {@code (agentId, version)} and {@code (agentId,
 *       checkpointId)}: of concurrent inserts of one version or id, at most one stores its record, and a stored record
 *       is complete or absent, also across a crash.
 *   <li>Every query pushes the whole filter down to the store: {@code nodeId} and each metadata entry by equality,
 *       {@code createdAfter} inclusive and {@code createdBefore} exclusive to the nanosecond, {@code maxVersion}
 *       inclusive, {@code includeTombstones}, and {@code limit} as "the newest N matches"; no backend loads all of an
 *       agent's records to filter them. A backend that cannot evaluate the attribute fields offers a
 *       {@link #candidateScan()} instead and filters on versions and limits only.
 *   <li>A query never misses a record whose insert completed before it started and which no delete completed before it
 *       returned removed; in particular, deleting older versions while reading never hides the newest one.
 *   <li>No read allocates more for one document than the maximum checkpoint size the backend was built with
 *       ({@link dev.agentpersistence.storage.StorageSettings#maxCheckpointSize()}): a larger stored document is a
 *       {@link dev.agentpersistence.CorruptCheckpointException} naming where it is, found before reading it.
 *   <li>A backend never changes an array it has handed out or was handed: a store in the heap may hand back the very
 *       array that was inserted on every read (the shell notices, and then recognises a record it decoded by the
 *       identity of its array), any other store a new one.
 *   <li>An unreachable store is a {@link dev.agentpersistence.StorageUnavailableException} with the driver's exception
 *       as its cause; the same backend works again once the store is back.
 * </ul>
 *
 * The {@code StorageProviderCompatibilityKit} of {@code persistence-tck}, run on a shell over the backend (with
 * {@code createProvider(StorageSettings)} for its read matrix), checks all of it. Implementations are thread-safe.
 */
public interface StorageBackend extends AutoCloseable {

    /**
     * Stores {@code record} unless a record of the same agent holds its version or its checkpoint id; then stores
     * nothing and returns those records.
     */
    InsertResult insert(StoredCheckpoint record);

    /**
     * Stores the history segments {@code record} references, as {@link HistorySegmentStore#putSegment} does each (in
     * the map's order), then {@link #insert}s the record: the segments are stored whether or not the record clashes,
     * and never after it. The default makes these separate writes; a backend that can make them one (a transaction, a
     * script) overrides it, so a save of a history in the message log costs one write. With no segments it is
     * {@code insert(record)}.
     *
     * @param segments segment ids of {@code record.agentId()} and their bytes; not empty only for a backend with
     *     {@link #segments()}
     */
    default InsertResult insert(StoredCheckpoint record, Map<String, byte[]> segments) {
        if (!segments.isEmpty()) {
            HistorySegmentStore area =
                    segments().orElseThrow(() -> new IllegalStateException(this + " keeps no history segments"));
            segments.forEach((id, content) -> area.putSegment(record.agentId(), id, content));
        }
        return insert(record);
    }

    /**
     * {@link #insert(StoredCheckpoint, Map)}, but only while the agent's newest record (tombstones included) is
     * {@code expected}, or, when {@code expected} is empty, while the agent has no record: a compare-and-set on the
     * agent's head. When the newest record is another one, no record is stored (the segments may be: collection frees
     * them) and the answer is {@link InsertResult#headMoved()}. A record whose version or id is taken is answered as
     * {@code insert} answers it.
     *
     * <p>The check and the insert must be one step against every other insert and deletion of the agent (a transaction
     * holding the newest row, a script, the agent's lock), so that a record built on a head that a deletion removed is
     * never stored. The default is not one step: it asks {@link #latest} and then inserts, so a deletion between the
     * two goes unnoticed; every built-in backend overrides it, and a custom backend whose store can do better should
     * too.
     *
     * @param expected the head the writer read, empty for an agent it read without records
     * @param segments as for {@link #insert(StoredCheckpoint, Map)}
     */
    default InsertResult insertAfter(
            Optional<ExpectedHead> expected, StoredCheckpoint record, Map<String, byte[]> segments) {
        Optional<StoredDocument> newest = latest(record.agentId(), CheckpointFilter.ALL);
        if (!ExpectedHead.holds(expected, newest)) {
            return InsertResult.headMoved();
        }
        return insert(record, segments);
    }

    /**
     * {@link #insert} for each of {@code records}, with the same guarantees per record (atomic, insert-if-absent on
     * version and id, a clash answered with the records holding them and leaving the other records unaffected); records
     * of one agent are inserted in the order given, so a later record clashing with an earlier one of the list is
     * answered with it. The default calls {@code insert} for each; a backend that can write many records in one round
     * trip or transaction overrides it.
     *
     * @return one result per record, in the order given
     */
    default List<InsertResult> insertAll(List<StoredCheckpoint> records) {
        var results = new ArrayList<InsertResult>(records.size());
        for (StoredCheckpoint record : records) {
            results.add(insert(record));
        }
        return results;
    }

    /** The record with this checkpoint id. */
    Optional<StoredDocument> find(String agentId, String checkpointId);

    /**
     * The matching record with the highest version ({@code filter.limit()} does not apply). The default asks
     * {@link #list} for the newest match; backends with a cheaper way override it.
     */
    default Optional<StoredDocument> latest(String agentId, CheckpointFilter filter) {
        List<StoredDocument> newest = list(agentId, filter.toBuilder().limit(1).build());
        return newest.isEmpty() ? Optional.empty() : Optional.of(newest.get(newest.size() - 1));
    }

    /** The matching records in ascending version order; with a limit, the newest {@code limit} of them. */
    List<StoredDocument> list(String agentId, CheckpointFilter filter);

    /** Deletes every record of the agent; returns how many there were. */
    int deleteAll(String agentId);

    /** Deletes the agent's records with a version strictly below {@code version}; returns how many. */
    int deleteBefore(String agentId, long version);

    /** The ids of agents with at least one record, sorted. */
    List<String> listAgents();

    /**
     * The backend's expiry, when its records keep their {@link StoredCheckpoint#expiresAt()}; only a backend with one
     * can be given a time to live. Default none: the shell then refuses a time to live and its {@code deleteExpired()}
     * deletes nothing.
     */
    default Optional<Expiry> expiry() {
        return Optional.empty();
    }

    /**
     * The history segment area, when the backend has one; without it histories are stored whole in every checkpoint.
     * Its ids are validated by the shell like checkpoint ids.
     */
    default Optional<HistorySegmentStore> segments() {
        return Optional.empty();
    }

    /**
     * The backend's native queues, when it has them (one record per item, each written by compare-and-set on its own
     * version); the shell checks ids and wraps bodies in its layers. Default none: pipelines then keep their queues in
     * checkpoints.
     */
    default Optional<QueueStore> queues() {
        return Optional.empty();
    }

    /**
     * How the backend answers filters on attribute fields when it keeps them only inside its documents (or only as a
     * lossy index): the shell then asks it for candidates and checks the decoded checkpoints itself, and calls
     * {@link #list} and {@link #latest} only with filters on versions and limits. Default none: {@code list} and
     * {@code latest} evaluate every field of a filter exactly, as the class comment says.
     */
    default Optional<CandidateScan> candidateScan() {
        return Optional.empty();
    }

    /**
     * How the backend sums up all its agents in one pass (count, bytes and newest record of each), when it has a
     * cheaper way than a list and a latest query per agent. Default none: the shell then asks per agent.
     */
    default Optional<AgentSummaryScan> agentSummaries() {
        return Optional.empty();
    }

    /**
     * A cheap round trip to the store (a ping, a {@code SELECT 1}, a bucket check).
     *
     * @throws dev.agentpersistence.StorageUnavailableException when the store cannot be reached
     */
    void checkHealth();

    /** Where a record is or would be stored (a path, a table row, a key), for error messages; never a secret. */
    String location(String agentId, String checkpointId);

    /**
     * What and where the store is, for people (health details, info, the command line): its kind and its address with
     * credentials hidden, e.g. {@code "PostgreSQL (table agent_checkpoints) at jdbc:postgresql://db:5432/agents"};
     * never a secret. The default is the backend's class name.
     */
    default String describe() {
        return getClass().getSimpleName();
    }

    /** Releases connections and files. Called once by the shell; the default holds nothing to release. */
    @Override
    default void close() {}
}
