package dev.agentpersistence.history.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * A range {@code [from, to)} of a history stored as one segment.
 *
 * @param from first message index, inclusive
 * @param to last message index, exclusive
 */
public record SegmentSpan(int from, int to) {
    public SegmentSpan {
        if (from < 0 || to <= from) {
            throw new IllegalArgumentException("not a segment range: [" + from + ", " + to + ")");
        }
    }

    /**
     * How a history of {@code size} messages is stored: for each tier (largest first) the range up to the last multiple
     * of its size, then the range up to the last complete block; empty ranges are left out. Depends on nothing but the
     * arguments, so equal prefixes give equal segments.
     */
    public static List<SegmentSpan> of(int size, int blockSize, List<Integer> tierSizes) {
        var spans = new ArrayList<SegmentSpan>(tierSizes.size() + 1);
        int previous = 0;
        for (int tier : tierSizes) {
            int end = size / tier * tier;
            if (end > previous) {
                spans.add(new SegmentSpan(previous, end));
                previous = end;
            }
        }
        int blocks = size / blockSize * blockSize;
        if (blocks > previous) {
            spans.add(new SegmentSpan(previous, blocks));
        }
        return spans;
    }

    /** How many messages the range holds. */
    public int length() {
        return to - from;
    }
}
