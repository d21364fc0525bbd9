package dev.agentpersistence.history.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * What a stored checkpoint says about a history kept in the agent's message log: how many messages it has and the log
 * entry holding its last ones. The entries before follow from each entry's link; the hash chain in the ids names every
 * message, so a reader verifies what it assembles. Stored as compact JSON in a reserved metadata entry:
 *
 * <pre>{@code {"format":2,"size":400,"log":"398-400-…-…"}}</pre>
 *
 * @param size messages in the whole history: {@code last.to()}
 * @param last the log entry ending the history
 */
public record LogDescriptor(int size, LogEntryId last) implements HistoryReference {
    /** The descriptor format of the message log. */
    public static final int FORMAT = 2;

    public LogDescriptor {
        Objects.requireNonNull(last, "last");
        if (size != last.to()) {
            throw new IllegalArgumentException(
                    "the history has " + size + " messages but its last log entry ends at " + last.to());
        }
    }

    @Override
    public String toJson() {
        // numbers and an id of digits, '-' and hex need no escaping
        return "{\"format\":" + FORMAT + ",\"size\":" + size + ",\"log\":\"" + last.text() + "\"}";
    }

    /** Reads a format 2 tree. */
    static LogDescriptor parse(JsonNode root, String text) {
        int size = HistoryDescriptor.integer(root, "size");
        JsonNode log = root.get("log");
        if (log == null || !log.isTextual()) {
            throw new IllegalArgumentException("the history descriptor lacks its log entry: " + text);
        }
        return new LogDescriptor(size, LogEntryId.parse(log.textValue()));
    }
}
