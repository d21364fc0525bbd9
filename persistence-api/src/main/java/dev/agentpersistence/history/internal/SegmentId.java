package dev.agentpersistence.history.internal;

import java.util.HexFormat;
import java.util.Objects;

/**
 * The id of a history segment, {@code <from>-<to>-<chain>}: the range and, in lower-case hex, the hash chain value that
 * names every message before {@code to}. Equal ids mean equal content.
 *
 * @param span the range of the history
 * @param chain the chain value at {@code span.to()}: 64 lower-case hex digits
 */
public record SegmentId(SegmentSpan span, String chain) {
    private static final HexFormat HEX = HexFormat.of();

    public SegmentId {
        Objects.requireNonNull(span, "span");
        Objects.requireNonNull(chain, "chain");
        if (!isLowerHex(chain, 64)) {
            throw new IllegalArgumentException("not a SHA-256 value in lower-case hex: '" + chain + "'");
        }
    }

    /** The id of {@code span} whose chain value at its end is {@code chainEnd}. */
    public static SegmentId of(SegmentSpan span, byte[] chainEnd) {
        return new SegmentId(span, HEX.formatHex(chainEnd));
    }

    /** The id as stored. */
    public String text() {
        return span.from() + "-" + span.to() + "-" + chain;
    }

    /** Whether {@code text} is exactly {@code digits} lower-case hex digits. */
    static boolean isLowerHex(String text, int digits) {
        if (text.length() != digits) {
            return false;
        }
        for (int i = 0; i < digits; i++) {
            char c = text.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Reads an id written by {@link #text()}.
     *
     * @throws IllegalArgumentException when {@code id} is not such an id
     */
    public static SegmentId parse(String id) {
        int first = id.indexOf('-');
        int second = first < 0 ? -1 : id.indexOf('-', first + 1);
        if (second < 0) {
            throw new IllegalArgumentException("'" + id + "' is not a history segment id");
        }
        try {
            var span = new SegmentSpan(
                    Integer.parseInt(id.substring(0, first)), Integer.parseInt(id.substring(first + 1, second)));
            return new SegmentId(span, id.substring(second + 1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + id + "' is not a history segment id", e);
        }
    }
}
