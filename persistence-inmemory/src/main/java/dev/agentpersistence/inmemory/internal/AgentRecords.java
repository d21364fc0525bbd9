package dev.agentpersistence.inmemory.internal;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.backend.ExpectedHead;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The records of one agent: sorted by version in a skip list (latest and version ranges in O(log n)), indexed by
 * checkpoint id. Reads take no lock; writes lock this object. Once emptied by a deletion the object is retired, and an
 * insert that finds it retired retries on a fresh one.
 */
public final class AgentRecords {
    private final ConcurrentSkipListMap<Long, StoredCheckpoint> byVersion = new ConcurrentSkipListMap<>();
    private final ConcurrentHashMap<String, Long> versionById = new ConcurrentHashMap<>();
    /** The record with the highest version, {@code null} when none: set by every write, read without a lock. */
    private volatile StoredCheckpoint newest;

    private boolean retired;

    /** Whether the agent has no record. */
    public boolean isEmpty() {
        return byVersion.isEmpty();
    }

    /**
     * Inserts {@code record} unless its version or id is taken.
     *
     * @return {@code null} when this object was retired and the caller must retry on a fresh one; else the records
     *     holding the version or id (empty when inserted)
     */
    public synchronized List<StoredDocument> insert(StoredCheckpoint record) {
        if (retired) {
            return null;
        }
        return insertUnlocked(record);
    }

    /**
     * {@link #insert}, only while the newest record is {@code expected} (empty: while there is none).
     *
     * @return {@code null} when this object was retired (retry on a fresh one); else the answer
     */
    public synchronized InsertResult insertAfter(Optional<ExpectedHead> expected, StoredCheckpoint record) {
        if (retired) {
            return null;
        }
        StoredCheckpoint last = newest;
        boolean holds =
                last == null ? expected.isEmpty() : ExpectedHead.holds(expected, last.checkpointId(), last.version());
        if (!holds) {
            return InsertResult.headMoved();
        }
        List<StoredDocument> clashing = insertUnlocked(record);
        return clashing.isEmpty() ? InsertResult.stored() : InsertResult.clashedWith(clashing);
    }

    private List<StoredDocument> insertUnlocked(StoredCheckpoint record) {
        var clashing = new ArrayList<StoredDocument>(2);
        var atVersion = byVersion.get(record.version());
        if (atVersion != null) {
            clashing.add(atVersion.toDocument());
        }
        Long idVersion = versionById.get(record.checkpointId());
        if (idVersion != null && idVersion != record.version()) {
            clashing.add(byVersion.get(idVersion).toDocument());
        }
        if (clashing.isEmpty()) {
            byVersion.put(record.version(), record);
            versionById.put(record.checkpointId(), record.version());
            StoredCheckpoint current = newest;
            if (current == null || record.version() > current.version()) {
                newest = record;
            }
        }
        return clashing;
    }

    /** The matches ascending; with a limit, walks from the newest and stops after {@code limit} matches. */
    public List<StoredDocument> find(CheckpointFilter filter) {
        var range = range(filter);
        Integer limit = filter.limit();
        var matches = new ArrayList<StoredDocument>();
        for (StoredCheckpoint stored :
                limit == null ? range.values() : range.descendingMap().values()) {
            if (stored.matches(filter)) {
                matches.add(stored.toDocument());
                if (limit != null && matches.size() == limit) {
                    break;
                }
            }
        }
        if (limit != null) {
            Collections.reverse(matches);
        }
        return matches;
    }

    /** The newest match, walking down from the highest version in range. */
    public Optional<StoredDocument> latest(CheckpointFilter filter) {
        if (filter.maxVersion() == null) {
            // the common case, the newest record matches: no walk of the map
            StoredCheckpoint last = newest;
            if (last == null) {
                return Optional.empty();
            }
            if (last.matches(filter)) {
                return Optional.of(last.toDocument());
            }
        }
        for (StoredCheckpoint stored : range(filter).descendingMap().values()) {
            if (stored.matches(filter)) {
                return Optional.of(stored.toDocument());
            }
        }
        return Optional.empty();
    }

    /** One record by checkpoint id. */
    public Optional<StoredDocument> get(String checkpointId) {
        Long version = versionById.get(checkpointId);
        var stored = version == null ? null : byVersion.get(version);
        return stored != null && stored.checkpointId().equals(checkpointId)
                ? Optional.of(stored.toDocument())
                : Optional.empty();
    }

    /** Deletes every record and retires this object; returns how many there were. */
    public synchronized int deleteAll() {
        int count = byVersion.size();
        byVersion.clear();
        versionById.clear();
        newest = null;
        retired = true;
        return count;
    }

    /** Deletes the versions strictly below {@code version}; retires this object when none remain. */
    public synchronized int deleteBefore(long version) {
        var below = byVersion.headMap(version, false);
        int count = 0;
        for (var entry : below.entrySet()) {
            versionById.remove(entry.getValue().checkpointId(), entry.getKey());
            count++;
        }
        below.clear();
        var last = byVersion.lastEntry();
        newest = last == null ? null : last.getValue();
        if (byVersion.isEmpty()) {
            retired = true;
        }
        return count;
    }

    /** Whether a deletion emptied this object for good. */
    public synchronized boolean isRetired() {
        return retired;
    }

    private NavigableMap<Long, StoredCheckpoint> range(CheckpointFilter filter) {
        return filter.maxVersion() == null ? byVersion : byVersion.headMap(filter.maxVersion(), true);
    }
}
