package dev.agentpersistence.history.internal;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * A segment in a parent's message log that names a fork whose history starts there ({@link LogBase}), so that the
 * parent's garbage collection keeps the entries the fork's checkpoints reference. Its id, {@code fork-<32 hex digits>},
 * is derived from the fork's agent id and is neither a log entry id nor a tiered segment id; its content is the fork's
 * agent id in UTF-8.
 */
public final class ForkMarker {
    private static final String PREFIX = "fork-";
    private static final int DIGITS = 32;

    private ForkMarker() {}

    /** The id of the marker naming {@code forkAgentId}. */
    public static String id(String forkAgentId) {
        byte[] digest = ChainHasher.sha256().digest(forkAgentId.getBytes(StandardCharsets.UTF_8));
        return PREFIX + HexFormat.of().formatHex(digest, 0, DIGITS / 2);
    }

    /** The stored content of the marker naming {@code forkAgentId}. */
    public static byte[] content(String forkAgentId) {
        return forkAgentId.getBytes(StandardCharsets.UTF_8);
    }

    /** Whether {@code segmentId} has the shape of a marker id. */
    public static boolean isMarker(String segmentId) {
        return segmentId.length() == PREFIX.length() + DIGITS && segmentId.startsWith(PREFIX);
    }

    /** The fork a marker names, or {@code null} when {@code content} is not the content of marker {@code segmentId}. */
    public static String forkOf(String segmentId, byte[] content) {
        String fork = new String(content, StandardCharsets.UTF_8);
        return id(fork).equals(segmentId) ? fork : null;
    }
}
