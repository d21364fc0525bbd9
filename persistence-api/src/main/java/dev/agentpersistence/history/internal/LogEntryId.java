package dev.agentpersistence.history.internal;

import java.util.HexFormat;
import java.util.Objects;

/**
 * The id of one entry of an agent's message log, {@code <from>-<to>-<chain>-<link>}: the range of the history it holds,
 * the first 16 bytes of the hash chain value after it (lower-case hex, naming every message before {@code to}) and the
 * first 8 bytes of the chain value before it, which names the entry it follows. Equal ids mean equal content.
 *
 * <p>Immutable; equal when the ids are equal.
 */
public final class LogEntryId {
    static final int CHAIN_DIGITS = 32;
    static final int LINK_DIGITS = 16;
    private static final HexFormat HEX = HexFormat.of();

    private final int from;
    private final int to;
    private final String chain;
    private final String link;
    private final String text;

    /**
     * @param from first message index, inclusive
     * @param to last message index, exclusive
     * @param chain 32 lower-case hex digits: the start of c({@code to})
     * @param link 16 lower-case hex digits: the start of c({@code from})
     */
    public LogEntryId(int from, int to, String chain, String link) {
        Objects.requireNonNull(chain, "chain");
        Objects.requireNonNull(link, "link");
        if (from < 0 || to <= from) {
            throw new IllegalArgumentException("not a log range: [" + from + ", " + to + ")");
        }
        if (!SegmentId.isLowerHex(chain, CHAIN_DIGITS) || !SegmentId.isLowerHex(link, LINK_DIGITS)) {
            throw new IllegalArgumentException(
                    "not a log entry chain and link in lower-case hex: " + chain + ", " + link);
        }
        this.from = from;
        this.to = to;
        this.chain = chain;
        this.link = link;
        this.text = from + "-" + to + "-" + chain + "-" + link;
    }

    /** The first message index, inclusive. */
    public int from() {
        return from;
    }

    /** The last message index, exclusive. */
    public int to() {
        return to;
    }

    /** The start of c({@code to}) in lower-case hex. */
    public String chain() {
        return chain;
    }

    /** The start of c({@code from}) in lower-case hex. */
    public String link() {
        return link;
    }

    /**
     * The id of the entry {@code [from, to)} whose chain values before and after it are {@code start} and {@code end}.
     */
    public static LogEntryId of(int from, int to, byte[] start, byte[] end) {
        return new LogEntryId(
                from, to, HEX.formatHex(end, 0, CHAIN_DIGITS / 2), HEX.formatHex(start, 0, LINK_DIGITS / 2));
    }

    /** Whether {@code value} is the chain value this entry's id names after it. */
    public boolean endsWith(byte[] value) {
        return HEX.formatHex(value, 0, CHAIN_DIGITS / 2).equals(chain);
    }

    /** Whether {@code value} is the chain value this entry's id names before it. */
    public boolean follows(byte[] value) {
        return HEX.formatHex(value, 0, LINK_DIGITS / 2).equals(link);
    }

    /** Whether this entry is the one {@code next} follows: it ends where {@code next} starts, with its link. */
    public boolean precedes(LogEntryId next) {
        return to == next.from && chain.startsWith(next.link);
    }

    /** How many messages the entry holds. */
    public int length() {
        return to - from;
    }

    /** The id as stored. */
    public String text() {
        return text;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof LogEntryId id && id.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }

    /** Whether {@code id} has the shape of a log entry id (segment ids of the tiered layout do not). */
    public static boolean isLogEntryId(String id) {
        int dashes = 0;
        for (int i = 0; i < id.length(); i++) {
            if (id.charAt(i) == '-') {
                dashes++;
            }
        }
        return dashes == 3;
    }

    /**
     * Reads an id written by {@link #text()}.
     *
     * @throws IllegalArgumentException when {@code id} is not such an id
     */
    public static LogEntryId parse(String id) {
        String[] parts = id.split("-", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("'" + id + "' is not a message log entry id");
        }
        if (!isDigits(parts[0]) || !isDigits(parts[1])) {
            throw new IllegalArgumentException("'" + id + "' is not a message log entry id");
        }
        try {
            return new LogEntryId(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), parts[2], parts[3]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + id + "' is not a message log entry id", e);
        }
    }

    private static boolean isDigits(String text) {
        if (text.isEmpty() || text.length() > 10 || (text.length() > 1 && text.charAt(0) == '0')) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
