package dev.agentpersistence.redis.internal;

import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.queue.QueueItem;
import dev.agentpersistence.queue.QueueStore;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import redis.clients.jedis.UnifiedJedis;

/**
 * Native queues in Redis: per queue six keys in one slot ({@link RedisKeys#queue}): the items, their versions, the
 * queue's order, the runnable items by time, the finished ones and the holds of claims. A write is one script that
 * compares the stored version before it writes anything ({@code queue_write.lua}); reads of several items are one
 * script too, so they see one state. Redis failures are translated into the provider's typed errors.
 */
final class RedisQueues implements QueueStore {
    private static final RedisScript WRITE = RedisScript.load("queue_write");
    private static final RedisScript READ = RedisScript.load("queue_read");
    private static final RedisScript TRIM = RedisScript.load("queue_trim");
    private static final RedisScript CLAIM = RedisScript.load("queue_claim");
    private static final RedisScript HOLD = RedisScript.load("queue_hold");
    private static final byte[] ALL = new byte[0];
    private static final Comparator<QueueItem> ORDER =
            Comparator.comparing(QueueItem::submittedAt).thenComparing(QueueItem::id);

    private final UnifiedJedis client;
    private final RedisKeys keys;
    private final RedisErrors errors;

    RedisQueues(UnifiedJedis client, RedisKeys keys, RedisErrors errors) {
        this.client = client;
        this.keys = keys;
        this.errors = errors;
    }

    private List<byte[]> keys(String queue) {
        return keys.queue(queue);
    }

    @Override
    public List<QueueItem> items(String queue) {
        return read(queue, ALL);
    }

    @Override
    public Optional<QueueItem> item(String queue, String id) {
        byte[] stored = run("queue item", () -> client.hget(keys(queue).get(0), bytes(id)));
        return stored == null ? Optional.empty() : Optional.of(decode(queue, id, stored));
    }

    /** The items runnable by {@code now} to the millisecond, from the script; sorted and checked exactly here. */
    @Override
    public List<QueueItem> runnable(String queue, Instant now, int limit) {
        return read(queue, bytes(Long.toString(now.toEpochMilli()))).stream()
                .filter(item -> item.isRunnableAt(now))
                .sorted(ORDER)
                .limit(limit)
                .toList();
    }

    /** One script: the runnable items nobody holds, the oldest submitted first, each held until {@code until}. */
    @Override
    public List<QueueItem> claim(String queue, Instant now, Instant until, int limit) {
        var keys = keys(queue);
        Object answer = run(
                "queue claim",
                () -> CLAIM.run(
                        client,
                        List.of(keys.get(0), keys.get(1), keys.get(3), keys.get(5)),
                        List.of(millis(now), millis(until), bytes(Integer.toString(limit)))));
        return decodeAll(queue, answer);
    }

    @Override
    public void hold(String queue, String id, Instant until) {
        var keys = keys(queue);
        run("queue hold", () -> HOLD.run(client, List.of(keys.get(0), keys.get(5)), List.of(bytes(id), millis(until))));
    }

    private static byte[] millis(Instant time) {
        return bytes(Long.toString(Math.floorDiv(QueueItem.toEpochNanos(time), 1_000_000L)));
    }

    @Override
    public boolean write(String queue, QueueItem item) {
        var keys = keys(queue);
        String runnable = item.runnableAt() == null
                ? ""
                : Long.toString(Math.floorDiv(QueueItem.toEpochNanos(item.runnableAt()), 1_000_000L));
        Object answer = run(
                "queue write",
                () -> WRITE.run(
                        client,
                        List.of(keys.get(0), keys.get(1), keys.get(2), keys.get(3), keys.get(4)),
                        List.of(
                                bytes(item.id()),
                                bytes(Long.toString(item.version())),
                                bytes(orderMember(item)),
                                bytes(runnable),
                                bytes(item.finished() ? "1" : "0"),
                                encode(item))));
        return Long.valueOf(1).equals(answer);
    }

    @Override
    public int deleteFinished(String queue, int keep) {
        Object answer = run(
                "queue deleteFinished", () -> TRIM.run(client, keys(queue), List.of(bytes(Integer.toString(keep)))));
        return ((Long) answer).intValue();
    }

    private List<QueueItem> read(String queue, byte[] until) {
        var keys = keys(queue);
        Object answer = run(
                "queue read",
                () -> READ.run(client, List.of(keys.get(0), keys.get(2), keys.get(3), keys.get(5)), List.of(until)));
        return decodeAll(queue, answer);
    }

    private List<QueueItem> decodeAll(String queue, Object answer) {
        var items = new ArrayList<QueueItem>();
        for (Object value : (List<?>) answer) {
            if (value instanceof byte[] stored) {
                items.add(decode(queue, null, stored));
            }
        }
        return items;
    }

    /** The item's member of the order set: its submission time as 20 digits (unsigned, so it sorts), then its id. */
    private static String orderMember(QueueItem item) {
        String digits = Long.toUnsignedString(QueueItem.toEpochNanos(item.submittedAt()) - Long.MIN_VALUE);
        return "0".repeat(20 - digits.length()) + digits + ":" + item.id();
    }

    /** {@code <version> <submitted ns> <runnable ns or -> <0|1> <id length>\n<id><body>}. */
    private static byte[] encode(QueueItem item) {
        byte[] id = bytes(item.id());
        byte[] header = bytes(item.version() + " " + QueueItem.toEpochNanos(item.submittedAt()) + " "
                + (item.runnableAt() == null ? "-" : Long.toString(QueueItem.toEpochNanos(item.runnableAt()))) + " "
                + (item.finished() ? 1 : 0) + " " + id.length + "\n");
        byte[] encoded = Arrays.copyOf(header, header.length + id.length + item.body().length);
        System.arraycopy(id, 0, encoded, header.length, id.length);
        System.arraycopy(item.body(), 0, encoded, header.length + id.length, item.body().length);
        return encoded;
    }

    private QueueItem decode(String queue, String expectedId, byte[] stored) {
        try {
            int newline = 0;
            while (stored[newline] != '\n') {
                newline++;
            }
            String[] fields = new String(stored, 0, newline, StandardCharsets.US_ASCII).split(" ");
            int idLength = Integer.parseInt(fields[4]);
            String id = new String(stored, newline + 1, idLength, StandardCharsets.UTF_8);
            if (expectedId != null && !expectedId.equals(id)) {
                throw new IllegalArgumentException("it names item '" + id + "'");
            }
            int bodyStart = newline + 1 + idLength;
            return new QueueItem(
                    id,
                    Long.parseLong(fields[0]),
                    QueueItem.ofEpochNanos(Long.parseLong(fields[1])),
                    fields[2].equals("-") ? null : QueueItem.ofEpochNanos(Long.parseLong(fields[2])),
                    fields[3].equals("1"),
                    Arrays.copyOfRange(stored, bodyStart, stored.length));
        } catch (RuntimeException e) {
            throw new CorruptCheckpointException(
                    queue, expectedId, errors.endpoint() + ", queue '" + queue + "'", "not a queue item: " + e, e);
        }
    }

    private <T> T run(String operation, Supplier<T> action) {
        return errors.run(operation, action);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
