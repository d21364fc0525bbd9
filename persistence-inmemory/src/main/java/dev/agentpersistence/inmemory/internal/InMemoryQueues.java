package dev.agentpersistence.inmemory.internal;

import dev.agentpersistence.queue.QueueItem;
import dev.agentpersistence.queue.QueueStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Queues on the heap: one map of items per queue, every call under one lock. */
final class InMemoryQueues implements QueueStore {
    private final Map<String, Map<String, QueueItem>> queues = new HashMap<>();
    /** Per queue, item id to the end of its hold. */
    private final Map<String, Map<String, Instant>> holds = new HashMap<>();

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
        var runnable = new ArrayList<QueueItem>();
        for (QueueItem item : items(queue)) {
            if (runnable.size() == limit) {
                break;
            }
            if (item.isRunnableAt(now) && !heldAt(queue, item.id(), now)) {
                runnable.add(item);
            }
        }
        return runnable;
    }

    @Override
    public synchronized List<QueueItem> claim(String queue, Instant now, Instant until, int limit) {
        List<QueueItem> claimed = runnable(queue, now, limit);
        claimed.forEach(item -> hold(queue, item.id(), until));
        return claimed;
    }

    @Override
    public synchronized void hold(String queue, String id, Instant until) {
        if (item(queue, id).isPresent()) {
            holds.computeIfAbsent(queue, q -> new HashMap<>()).put(id, until);
        }
    }

    private boolean heldAt(String queue, String id, Instant now) {
        Instant until = holds.getOrDefault(queue, Map.of()).get(id);
        return until != null && until.isAfter(now);
    }

    @Override
    public synchronized boolean write(String queue, QueueItem item) {
        Map<String, QueueItem> items = queues.computeIfAbsent(queue, q -> new HashMap<>());
        QueueItem stored = items.get(item.id());
        long storedVersion = stored == null ? 0 : stored.version();
        if (item.version() != storedVersion + 1) {
            return false;
        }
        items.put(item.id(), item);
        return true;
    }

    @Override
    public synchronized int deleteFinished(String queue, int keep) {
        List<QueueItem> finished = new ArrayList<>();
        for (QueueItem item : items(queue)) {
            if (item.finished()) {
                finished.add(item);
            }
        }
        List<QueueItem> deleted = finished.subList(0, Math.max(0, finished.size() - keep));
        deleted.forEach(item -> {
            queues.get(queue).remove(item.id());
            holds.getOrDefault(queue, new HashMap<>()).remove(item.id());
        });
        return deleted.size();
    }
}
