package dev.agentpersistence.s3.internal;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Content of an id marker: which version holds a checkpoint id. Stored as UTF-8 text {@code "1\n<version>\n<checkpoint
 * id>"}; the id is kept in full because long ids are keyed by digest.
 *
 * @param version the version the id was claimed for
 * @param checkpointId the id
 */
public record IdMarker(long version, String checkpointId) {
    private static final String FORMAT = "1";

    public byte[] toBytes() {
        return (FORMAT + "\n" + version + "\n" + checkpointId).getBytes(StandardCharsets.UTF_8);
    }

    /** Parses a marker; empty when the bytes are not one. */
    public static Optional<IdMarker> parse(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        int first = text.indexOf('\n');
        int second = first < 0 ? -1 : text.indexOf('\n', first + 1);
        if (second < 0 || !text.substring(0, first).equals(FORMAT)) {
            return Optional.empty();
        }
        try {
            long version = Long.parseLong(text.substring(first + 1, second));
            String id = text.substring(second + 1);
            return version < 0 || id.isEmpty() ? Optional.empty() : Optional.of(new IdMarker(version, id));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
