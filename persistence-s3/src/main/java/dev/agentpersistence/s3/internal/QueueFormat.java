package dev.agentpersistence.s3.internal;

import dev.agentpersistence.queue.QueueItem;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The content of the queue objects, each a few UTF-8 header lines (ids hold no control characters, so no newline):
 *
 * <pre>
 * item       queue-item 1
 *            &lt;id&gt;
 *            &lt;generation&gt; &lt;write&gt; &lt;version&gt; &lt;submitted&gt; &lt;runnable or -&gt; &lt;finished&gt;
 *            &lt;the body's bytes&gt;
 * tombstone  queue-item-deleted 1
 *            &lt;id&gt;
 *            &lt;generation&gt; &lt;version&gt; &lt;token&gt;
 * hold       queue-hold 1
 *            &lt;generation&gt; &lt;until&gt; &lt;token&gt;
 * </pre>
 *
 * <p>Fields are separated by one space, lines end with a newline; finished is {@code 0} or {@code 1}. Times are epoch
 * nanoseconds ({@link QueueItem#toEpochNanos}). The generation is 16 random hex digits chosen by an item's first write
 * and kept by every later one: it tells the markers and holds of an item apart from those of an earlier item of the
 * same id that was deleted. The write, and the token, are 16 random hex digits of each write: a writer whose
 * conditional PUT was refused (its first attempt may have been stored, its answer lost, and the client's retry refused)
 * reads the item and knows its own write, and tombstones and holds never repeat an entity tag.
 */
final class QueueFormat {
    private static final String ITEM = "queue-item 1";
    private static final String TOMBSTONE = "queue-item-deleted 1";
    private static final String HOLD = "queue-hold 1";
    private static final SecureRandom RANDOM = new SecureRandom();

    private QueueFormat() {}

    /** What an item's object holds: the item, or the tombstone of one being deleted. */
    sealed interface Content permits Live, Deleted {
        String id();

        String generation();

        long version();
    }

    /**
     * A stored item.
     *
     * @param write the random mark of the write that stored it
     */
    record Live(QueueItem item, String generation, String write) implements Content {
        @Override
        public String id() {
            return item.id();
        }

        @Override
        public long version() {
            return item.version();
        }
    }

    /** The tombstone {@code deleteFinished} writes over a finished item before deleting it; readers see no item. */
    record Deleted(String id, String generation, long version) implements Content {}

    /**
     * A hold.
     *
     * @param generation the generation of the item held; a hold of another generation holds nothing
     * @param until its end, epoch nanoseconds
     */
    record Hold(String generation, long until) {
        /** Whether it holds an item of {@code itemGeneration} at {@code now} (epoch nanoseconds). */
        boolean holds(String itemGeneration, long now) {
            return generation.equals(itemGeneration) && until > now;
        }
    }

    /** A new generation or token: 16 random hex digits. */
    static String random() {
        byte[] bytes = new byte[8];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    static boolean isGeneration(String text) {
        if (text.length() != 16) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if ((c < '0' || c > '9') && (c < 'a' || c > 'f')) {
                return false;
            }
        }
        return true;
    }

    static byte[] item(QueueItem item, String generation, String write) {
        String header = ITEM + "\n" + item.id() + "\n" + generation + " " + write + " " + item.version() + " "
                + QueueItem.toEpochNanos(item.submittedAt()) + " "
                + (item.runnableAt() == null ? "-" : Long.toString(QueueItem.toEpochNanos(item.runnableAt()))) + " "
                + (item.finished() ? "1" : "0") + "\n";
        byte[] head = header.getBytes(StandardCharsets.UTF_8);
        byte[] bytes = Arrays.copyOf(head, head.length + item.body().length);
        System.arraycopy(item.body(), 0, bytes, head.length, item.body().length);
        return bytes;
    }

    static byte[] tombstone(Content of) {
        return (TOMBSTONE + "\n" + of.id() + "\n" + of.generation() + " " + of.version() + " " + random() + "\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    static byte[] hold(String generation, Instant until) {
        return (HOLD + "\n" + generation + " " + QueueItem.toEpochNanos(until) + " " + random() + "\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The content of an item's object.
     *
     * @throws IllegalArgumentException saying what is wrong, when the bytes are not an item or a tombstone
     */
    static Content decode(byte[] bytes) {
        int first = newline(bytes, 0);
        int second = newline(bytes, first + 1);
        int third = newline(bytes, second + 1);
        String format = text(bytes, 0, first);
        String id = text(bytes, first + 1, second);
        String[] fields = text(bytes, second + 1, third).split(" ", -1);
        try {
            if (format.equals(TOMBSTONE)) {
                if (fields.length != 3 || third != bytes.length - 1) {
                    throw new IllegalArgumentException("malformed tombstone");
                }
                return new Deleted(id, generation(fields[0]), version(fields[1]));
            }
            if (!format.equals(ITEM)) {
                throw new IllegalArgumentException("unknown format '" + format + "'");
            }
            if (fields.length != 6 || !isGeneration(fields[1]) || !(fields[5].equals("0") || fields[5].equals("1"))) {
                throw new IllegalArgumentException("malformed header '" + String.join(" ", fields) + "'");
            }
            var item = new QueueItem(
                    id,
                    version(fields[2]),
                    QueueItem.ofEpochNanos(Long.parseLong(fields[3])),
                    fields[4].equals("-") ? null : QueueItem.ofEpochNanos(Long.parseLong(fields[4])),
                    fields[5].equals("1"),
                    Arrays.copyOfRange(bytes, third + 1, bytes.length));
            return new Live(item, generation(fields[0]), fields[1]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("malformed number in the header (" + e.getMessage() + ")", e);
        }
    }

    /** A hold's content; empty when the bytes are not one (such a hold holds nothing). */
    static Optional<Hold> decodeHold(byte[] bytes) {
        String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n", -1);
        if (lines.length != 3 || !lines[0].equals(HOLD) || !lines[2].isEmpty()) {
            return Optional.empty();
        }
        String[] fields = lines[1].split(" ", -1);
        try {
            return fields.length == 3 && isGeneration(fields[0])
                    ? Optional.of(new Hold(fields[0], Long.parseLong(fields[1])))
                    : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static String generation(String field) {
        if (!isGeneration(field)) {
            throw new IllegalArgumentException("malformed generation '" + field + "'");
        }
        return field;
    }

    private static long version(String field) {
        long version = Long.parseLong(field);
        if (version < 1) {
            throw new IllegalArgumentException("version " + version + " is below 1");
        }
        return version;
    }

    private static int newline(byte[] bytes, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        throw new IllegalArgumentException("the header ends early, after " + bytes.length + " bytes");
    }

    private static String text(byte[] bytes, int from, int to) {
        return new String(bytes, from, to - from, StandardCharsets.UTF_8);
    }
}
