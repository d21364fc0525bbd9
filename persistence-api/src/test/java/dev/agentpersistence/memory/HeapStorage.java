package dev.agentpersistence.memory;

import dev.agentpersistence.backend.AgentRecordsBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.storage.StorageShell;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * The real storage shell (stored form, conflicts, incremental history) over a map in the heap, as the in-memory
 * provider is built (that provider lives in a module depending on this one).
 */
final class HeapStorage extends AgentRecordsBackend {
    private final Map<Area, ConcurrentMap<String, List<StoredCheckpoint>>> values =
            Map.of(Area.CHECKPOINTS, new ConcurrentHashMap<>(), Area.SEGMENTS, new ConcurrentHashMap<>());

    private HeapStorage() {
        super(Clock.systemUTC(), Long.MAX_VALUE);
    }

    /** A provider over a new, empty heap. */
    static StorageShell provider() {
        return StorageShell.builder(new HeapStorage()).build();
    }

    /** The bytes of every document the provider holds now for its agents, checkpoints and history segments. */
    static long storedBytes(StorageShell provider) {
        var form = provider.storedForm().orElseThrow();
        long bytes = 0;
        for (String agentId : provider.listAgents()) {
            for (var document : form.documents(agentId, dev.agentpersistence.CheckpointFilter.ALL)) {
                bytes += document.size();
            }
        }
        for (String agentId : form.listSegmentAgents()) {
            var ids = form.segments().listSegments(agentId).stream()
                    .map(dev.agentpersistence.backend.SegmentInfo::segmentId)
                    .toList();
            for (byte[] content : form.segments().getSegments(agentId, ids).values()) {
                bytes += content.length;
            }
        }
        return bytes;
    }

    @Override
    protected List<StoredCheckpoint> read(Area area, String agentId) {
        return values.get(area).getOrDefault(agentId, List.of());
    }

    @Override
    protected int update(Area area, String agentId, UnaryOperator<List<StoredCheckpoint>> change) {
        var removed = new AtomicInteger();
        values.get(area).compute(agentId, (id, old) -> {
            List<StoredCheckpoint> before = old == null ? List.of() : old;
            List<StoredCheckpoint> after = change.apply(before);
            removed.set(before.size() - after.size());
            return after.isEmpty() ? null : after;
        });
        return removed.get();
    }

    @Override
    protected Collection<String> agents(Area area) {
        return values.get(area).keySet();
    }

    @Override
    public void checkHealth() {}

    @Override
    protected String location(Area area, String agentId, String id) {
        return "heap " + area + "/" + agentId + "/" + id;
    }
}
