package dev.agentpersistence.memory.internal;

import dev.agentpersistence.Message;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;

/**
 * The positions of a conversation's history that form its window, ascending and distinct. Stored in checkpoint metadata
 * as half-open ranges of positions, {@code "0-1,15-42"}; the window that is the whole history is stored as no entry at
 * all. Immutable.
 */
public final class ConversationWindow {
    private static final ConversationWindow EMPTY = new ConversationWindow(new int[0]);
    private final int[] positions;

    private ConversationWindow(int[] positions) {
        this.positions = positions;
    }

    /** No position. */
    public static ConversationWindow empty() {
        return EMPTY;
    }

    /** Every position of a history of {@code size} messages. */
    public static ConversationWindow all(int size) {
        return range(0, size);
    }

    /** Positions {@code from} (inclusive) to {@code to} (exclusive). */
    public static ConversationWindow range(int from, int to) {
        int[] positions = new int[Math.max(0, to - from)];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = from + i;
        }
        return new ConversationWindow(positions);
    }

    /** Positions given in any order, duplicates allowed. */
    public static ConversationWindow of(int[] positions) {
        return new ConversationWindow(
                Arrays.stream(positions).sorted().distinct().toArray());
    }

    /**
     * Reads the stored form written by {@link #encode()}: {@code null} is the whole history.
     *
     * @throws IllegalArgumentException when {@code ranges} is malformed, names a position outside the history, or its
     *     ranges are not ascending and disjoint (as {@link #encode} writes them), so that reading allocates at most one
     *     position per history message
     */
    public static ConversationWindow decode(String ranges, int historySize) {
        if (ranges == null) {
            return all(historySize);
        }
        if (ranges.isEmpty()) {
            return EMPTY;
        }
        var positions = new ArrayList<Integer>();
        int end = 0;
        for (String range : ranges.split(",", -1)) {
            int dash = range.indexOf('-');
            if (dash <= 0 || dash == range.length() - 1) {
                throw new IllegalArgumentException("malformed window range '" + range + "' in '" + ranges + "'");
            }
            int from;
            int to;
            try {
                from = Integer.parseInt(range.substring(0, dash));
                to = Integer.parseInt(range.substring(dash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("malformed window range '" + range + "' in '" + ranges + "'", e);
            }
            if (from < 0 || to <= from || to > historySize) {
                throw new IllegalArgumentException(
                        "window range '" + range + "' lies outside a history of " + historySize + " messages");
            }
            if (from < end) {
                throw new IllegalArgumentException("window range '" + range
                        + "' overlaps or precedes the range before it; ranges must be ascending and disjoint");
            }
            end = to;
            for (int p = from; p < to; p++) {
                positions.add(p);
            }
        }
        return of(positions.stream().mapToInt(Integer::intValue).toArray());
    }

    /**
     * The stored form: ranges, or {@code null} when the window is the whole history of {@code historySize} messages.
     */
    public String encode(int historySize) {
        if (positions.length == historySize && (historySize == 0 || positions[historySize - 1] == historySize - 1)) {
            return null;
        }
        var ranges = new StringJoiner(",");
        int i = 0;
        while (i < positions.length) {
            int from = positions[i];
            int to = from + 1;
            while (i + 1 < positions.length && positions[i + 1] == to) {
                i++;
                to++;
            }
            ranges.add(from + "-" + to);
            i++;
        }
        return ranges.toString();
    }

    /** The number of positions. */
    public int size() {
        return positions.length;
    }

    /** The {@code index}-th position. */
    public int position(int index) {
        return positions[index];
    }

    /** Whether {@code position} is in the window. */
    public boolean contains(int position) {
        return Arrays.binarySearch(positions, position) >= 0;
    }

    /** This window with the positions of {@code other} added. */
    public ConversationWindow plus(ConversationWindow other) {
        int[] both = Arrays.copyOf(positions, positions.length + other.positions.length);
        System.arraycopy(other.positions, 0, both, positions.length, other.positions.length);
        return of(both);
    }

    /** This window without the positions of {@code other}. */
    public ConversationWindow minus(ConversationWindow other) {
        return new ConversationWindow(
                Arrays.stream(positions).filter(p -> !other.contains(p)).toArray());
    }

    /** This window without the positions at indexes {@code from} (inclusive) to {@code to} (exclusive). */
    public ConversationWindow withoutIndexes(int from, int to) {
        int[] kept = new int[positions.length - (to - from)];
        System.arraycopy(positions, 0, kept, 0, from);
        System.arraycopy(positions, to, kept, from, positions.length - to);
        return new ConversationWindow(kept);
    }

    /** The messages of {@code history} at the window's positions, in order. */
    public List<Message> select(List<Message> history) {
        if (positions.length == history.size()) {
            return List.copyOf(history); // positions are distinct, ascending and in range: all of them
        }
        var selected = new Message[positions.length];
        for (int i = 0; i < positions.length; i++) {
            selected[i] = history.get(positions[i]);
        }
        return List.of(selected);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ConversationWindow w && Arrays.equals(positions, w.positions);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(positions);
    }

    @Override
    public String toString() {
        return "ConversationWindow[" + encode(-1) + "]";
    }
}
