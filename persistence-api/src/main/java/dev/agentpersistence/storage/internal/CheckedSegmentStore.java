package dev.agentpersistence.storage.internal;

import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.internal.StorageChecks;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A backend's segment area as the shell exposes it: ids and arguments checked and the shell's closed state honoured
 * before the backend is called; backends never validate.
 */
public final class CheckedSegmentStore implements HistorySegmentStore {
    private final HistorySegmentStore backend;
    private final Runnable requireOpen;
    private final Consumer<String> requireWritable;

    public CheckedSegmentStore(HistorySegmentStore backend, Runnable requireOpen) {
        this(backend, requireOpen, operation -> {});
    }

    /** A store whose writes first pass {@code requireWritable}, handed the name of the operation. */
    public CheckedSegmentStore(HistorySegmentStore backend, Runnable requireOpen, Consumer<String> requireWritable) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.requireOpen = Objects.requireNonNull(requireOpen, "requireOpen");
        this.requireWritable = Objects.requireNonNull(requireWritable, "requireWritable");
    }

    @Override
    public void putSegment(String agentId, String segmentId, byte[] content) {
        requireOpen.run();
        requireWritable.accept("putSegment");
        StorageChecks.requireAgentId(agentId);
        StorageChecks.requireSegmentId(segmentId);
        Objects.requireNonNull(content, "content");
        backend.putSegment(agentId, segmentId, content);
    }

    @Override
    public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
        requireOpen.run();
        StorageChecks.requireAgentId(agentId);
        Objects.requireNonNull(segmentIds, "segmentIds").forEach(StorageChecks::requireSegmentId);
        return segmentIds.isEmpty() ? Map.of() : backend.getSegments(agentId, segmentIds);
    }

    @Override
    public List<SegmentInfo> listSegments(String agentId) {
        requireOpen.run();
        StorageChecks.requireAgentId(agentId);
        return backend.listSegments(agentId);
    }

    @Override
    public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
        requireOpen.run();
        requireWritable.accept("deleteSegments");
        StorageChecks.requireAgentId(agentId);
        Objects.requireNonNull(segmentIds, "segmentIds").forEach(StorageChecks::requireSegmentId);
        Objects.requireNonNull(writtenBefore, "writtenBefore");
        return segmentIds.isEmpty() ? 0 : backend.deleteSegments(agentId, segmentIds, writtenBefore);
    }

    @Override
    public List<String> listSegmentAgents() {
        requireOpen.run();
        return backend.listSegmentAgents();
    }
}
