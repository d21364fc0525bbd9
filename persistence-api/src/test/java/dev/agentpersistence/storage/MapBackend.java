package dev.agentpersistence.storage;

import dev.agentpersistence.backend.AgentRecordsBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/** A backend over maps in the heap, with a segment area, for the API's own tests of the storage shell. */
public final class MapBackend extends AgentRecordsBackend {
    private final Map<Area, Map<String, List<StoredCheckpoint>>> values =
            Map.of(Area.CHECKPOINTS, new TreeMap<>(), Area.SEGMENTS, new TreeMap<>());

    private final java.util.concurrent.atomic.AtomicInteger segmentReads =
            new java.util.concurrent.atomic.AtomicInteger();

    public MapBackend(Clock clock) {
        super(clock, Long.MAX_VALUE);
    }

    /** A shell over a new map backend, its segments and expiry stamped by {@code clock}. */
    public static StorageShell.Builder shell(Clock clock) {
        return StorageShell.builder(new MapBackend(clock)).clock(clock);
    }

    @Override
    protected synchronized List<StoredCheckpoint> read(Area area, String agentId) {
        if (area == Area.SEGMENTS) {
            segmentReads.incrementAndGet();
        }
        return values.get(area).getOrDefault(agentId, List.of());
    }

    @Override
    protected synchronized int update(Area area, String agentId, UnaryOperator<List<StoredCheckpoint>> change) {
        List<StoredCheckpoint> before = read(area, agentId);
        List<StoredCheckpoint> after = change.apply(before);
        if (after.isEmpty()) {
            values.get(area).remove(agentId);
        } else {
            values.get(area).put(agentId, after);
        }
        return before.size() - after.size();
    }

    @Override
    protected synchronized Collection<String> agents(Area area) {
        return Set.copyOf(values.get(area).keySet());
    }

    /** How many times the segment area was read (each a round trip of a remote backend). */
    public int segmentReads() {
        return segmentReads.get();
    }

    @Override
    public void checkHealth() {}

    @Override
    protected String location(Area area, String agentId, String id) {
        return "map " + area + " " + agentId + "/" + id;
    }
}
