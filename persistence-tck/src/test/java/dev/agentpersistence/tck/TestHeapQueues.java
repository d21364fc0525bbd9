package dev.agentpersistence.tck;

import dev.agentpersistence.queue.QueueItem;
import dev.agentpersistence.queue.QueueStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Queues on the heap for the kit's own tests; with {@code checksVersion} off, a write overwrites whatever is there. */
final class TestHeapQueues implements QueueStore {
    final Map<String, Map<String, QueueItem>> queues = new HashMap<>();
    private final Map<List<String>, Instant> holds = new HashMap<>();
    private final boolean checksVersion;

    TestHeapQueues(boolean checksVersion) {
        this.checksVersion = checksVersion;
    }

    @Override
    public synchronized List<QueueItem> items(String queue) {
        var items = new ArrayList<>(queues.getOrDefault(queue, Map.of()).values());
        items.sort(QueueItem.ORDER);
        return items;
    }

    @Override
    public synchronized Optional<QueueItem> item(String queue, String id) {
        return Optional.ofNullable(queues.getOrDefault(queue, Map.of()).get(id));
    }

    @Override
    public synchronized List<QueueItem> runnable(String queue, Instant now, int limit) {
        return items(queue).stream()
                .filter(item -> item.isRunnableAt(now))
                .filter(item -> !holds.getOrDefault(List.of(queue, item.id()), Instant.MIN)
                        .isAfter(now))
                .limit(limit)
                .toList();
    }

    @Override
    public synchronized List<QueueItem> claim(String queue, Instant now, Instant until, int limit) {
        var claimed = runnable(queue, now, limit);
        claimed.forEach(item -> hold(queue, item.id(), until));
        return claimed;
    }

    @Override
    public synchronized void hold(String queue, String id, Instant until) {
        if (item(queue, id).isPresent()) {
            holds.put(List.of(queue, id), until);
        }
    }

    @Override
    public synchronized boolean write(String queue, QueueItem item) {
        var items = queues.computeIfAbsent(queue, q -> new HashMap<>());
        QueueItem stored = items.get(item.id());
        if (checksVersion && item.version() != (stored == null ? 0 : stored.version()) + 1) {
            return false;
        }
        items.put(item.id(), item);
        return true;
    }

    @Override
    public synchronized int deleteFinished(String queue, int keep) {
        var finished = items(queue).stream().filter(QueueItem::finished).toList();
        var doomed = finished.subList(0, Math.max(0, finished.size() - keep));
        doomed.forEach(item -> queues.get(queue).remove(item.id()));
        return doomed.size();
    }
}
