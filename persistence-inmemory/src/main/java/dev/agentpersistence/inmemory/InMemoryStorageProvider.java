package dev.agentpersistence.inmemory;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.history.IncrementalHistoryStorageProvider;
import dev.agentpersistence.inmemory.internal.AgentCheckpoints;
import dev.agentpersistence.inmemory.internal.SegmentArea;
import dev.agentpersistence.spi.HistorySegmentStore;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.spi.SegmentInfo;
import dev.agentpersistence.spi.StorageChecks;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Keeps checkpoints in the heap of this instance; they are gone when it is closed or the JVM exits.
 * Thread-safe: reads take no lock, saves of one agent are serialized.
 *
 * <p>Per agent, checkpoints sit in a skip list keyed by version, so the latest checkpoint and
 * {@code maxVersion} ranges cost O(log n); a {@code limit} walks down from the newest match and stops
 * after {@code limit} matches; lookups by id use an index.
 *
 * <p>Checkpoints are kept as objects, not as encoded documents, so reads never parse. Callers still
 * cannot change what is stored: the only mutable parts of a checkpoint, JSON objects and arrays (in
 * {@code lastInput}, state values and tool call arguments), are deep-copied on save and on every
 * read; everything else is immutable and shared. A checkpoint without such nodes is returned as stored.
 *
 * <p>Also a {@link HistorySegmentStore}, so {@link #withIncrementalHistory()} works, but
 * {@code PersistenceStorageProviders.load} does not add the layer unless
 * {@code agent.persistence.history.incremental=true}: checkpoints here share their immutable message
 * objects, so a long history costs one reference per message and checkpoint, and the layer would
 * only add encoding to every save and read.
 */
public final class InMemoryStorageProvider implements PersistenceStorageProvider<CheckpointFilter>, HistorySegmentStore {
    private final ConcurrentSkipListMap<String, AgentCheckpoints> agents = new ConcurrentSkipListMap<>();
    private final SegmentArea segments = new SegmentArea();
    private final Clock clock;
    private volatile boolean closed;

    /** An empty store. */
    public InMemoryStorageProvider() {
        this(Clock.systemUTC());
    }

    /** An empty store whose history segments are stamped with {@code clock}. */
    public InMemoryStorageProvider(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * This store with incremental message histories ({@link IncrementalHistoryStorageProvider}), as
     * {@code PersistenceStorageProviders.load} hands it out.
     */
    public IncrementalHistoryStorageProvider withIncrementalHistory() {
        return IncrementalHistoryStorageProvider.builder(this).clock(clock).build();
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        requireOpen();
        StorageChecks.requireSaveArguments(agentId, checkpoint);
        while (!agents.computeIfAbsent(agentId, AgentCheckpoints::new).save(checkpoint)) {
            Thread.onSpinWait();
        }
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        var checkpoints = agents.get(agentId);
        return checkpoints == null ? List.of() : checkpoints.find(filter == null ? CheckpointFilter.ALL : filter);
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        var checkpoints = agents.get(agentId);
        return checkpoints == null ? Optional.empty() : checkpoints.latest(filter == null ? CheckpointFilter.ALL : filter);
    }

    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        StorageChecks.requireCheckpointId(checkpointId);
        var checkpoints = agents.get(agentId);
        return checkpoints == null ? Optional.empty() : checkpoints.get(checkpointId);
    }

    @Override
    public int deleteCheckpoints(String agentId) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        var checkpoints = agents.get(agentId);
        if (checkpoints == null) {
            return 0;
        }
        int count = checkpoints.deleteAll();
        agents.remove(agentId, checkpoints);
        return count;
    }

    @Override
    public int deleteCheckpointsBefore(String agentId, long version) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        var checkpoints = agents.get(agentId);
        if (checkpoints == null) {
            return 0;
        }
        int count = checkpoints.deleteBefore(version);
        if (checkpoints.isRetired()) {
            agents.remove(agentId, checkpoints);
        }
        return count;
    }

    @Override
    public List<String> listAgents() {
        requireOpen();
        var ids = new ArrayList<String>();
        agents.forEach((agentId, checkpoints) -> {
            if (!checkpoints.isEmpty()) {
                ids.add(agentId);
            }
        });
        return ids;
    }

    @Override
    public void putSegment(String agentId, String segmentId, byte[] content) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        StorageChecks.requireSegmentId(segmentId);
        Objects.requireNonNull(content, "content");
        segments.put(agentId, segmentId, content, clock.instant());
    }

    @Override
    public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        segmentIds.forEach(StorageChecks::requireSegmentId);
        return segments.get(agentId, segmentIds);
    }

    @Override
    public List<SegmentInfo> listSegments(String agentId) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        return segments.list(agentId);
    }

    @Override
    public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        segmentIds.forEach(StorageChecks::requireSegmentId);
        Objects.requireNonNull(writtenBefore, "writtenBefore");
        return segments.delete(agentId, segmentIds, writtenBefore);
    }

    @Override
    public List<String> listSegmentAgents() {
        requireOpen();
        return segments.agents();
    }

    /** {@code false}: see the class documentation. */
    @Override
    public boolean incrementalByDefault() {
        return false;
    }

    /** Drops every checkpoint and segment; later calls throw {@link IllegalStateException}. Closing again does nothing. */
    @Override
    public void close() {
        closed = true;
        agents.clear();
        segments.clear();
    }

    private void requireOpen() {
        StorageChecks.requireOpen(closed, "InMemoryStorageProvider");
    }

    @Override
    public String toString() {
        return "InMemoryStorageProvider[agents=" + agents.size() + (closed ? ", closed" : "") + "]";
    }
}
