package dev.agentpersistence.tck;

import dev.agentpersistence.backend.AgentRecordsBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * The smallest {@link AgentRecordsBackend}: each agent's records are one value of a concurrent map, replaced atomically
 * by {@link ConcurrentMap#compute}. Backends over one {@link Store} share their storage.
 */
final class HeapRecordsBackend extends AgentRecordsBackend {
    private final Store store;

    HeapRecordsBackend(Store store, Clock clock) {
        super(clock, Long.MAX_VALUE); // the records stay in the heap: no read to bound
        this.store = store;
    }

    /** The values of both areas, shared by the backends built over it. */
    static final class Store {
        private final Map<Area, ConcurrentMap<String, List<StoredCheckpoint>>> values = new EnumMap<>(Area.class);

        Store() {
            for (Area area : Area.values()) {
                values.put(area, new ConcurrentHashMap<>());
            }
        }

        /** Every record's attributes and bytes, for the kit's encryption-at-rest group. */
        byte[] dump() {
            var out = new ByteArrayOutputStream();
            values.values()
                    .forEach(area -> area.values()
                            .forEach(records -> records.forEach(r -> {
                                String attributes = r.agentId() + r.checkpointId() + r.nodeId() + r.metadata();
                                out.writeBytes(attributes.getBytes(StandardCharsets.UTF_8));
                                out.writeBytes(r.document());
                            })));
            return out.toByteArray();
        }
    }

    @Override
    protected List<StoredCheckpoint> read(Area area, String agentId) {
        return store.values.get(area).getOrDefault(agentId, List.of());
    }

    @Override
    protected int update(Area area, String agentId, UnaryOperator<List<StoredCheckpoint>> change) {
        var removed = new AtomicInteger();
        store.values.get(area).compute(agentId, (id, old) -> {
            List<StoredCheckpoint> before = old == null ? List.of() : old;
            List<StoredCheckpoint> after = List.copyOf(change.apply(before));
            removed.set(before.size() - after.size());
            return after.isEmpty() ? null : after;
        });
        return removed.get();
    }

    @Override
    protected Collection<String> agents(Area area) {
        return List.copyOf(store.values.get(area).keySet());
    }

    @Override
    public void checkHealth() {
        // the heap is always there
    }

    @Override
    protected String location(Area area, String agentId, String id) {
        return "heap records " + area + " " + agentId + "/" + id;
    }
}
