package dev.agentpersistence.history.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a stored checkpoint says about a history kept in the agent's message log: how many messages it has and the log
 * entry holding its last ones. The entries before follow from each entry's link; the hash chain in the ids names every
 * message, so a reader verifies what it assembles. Stored as compact JSON in a reserved metadata entry:
 *
 * <pre>{@code {"format":2,"size":400,"log":"398-400-…-…"}}</pre>
 *
 * <p>A fork's history starts in its parent's log ({@link LogBase}): its descriptor then names, oldest first, the agents
 * whose logs hold its first messages and the last entry held in each, in format {@value #FORKED_FORMAT}:
 *
 * <pre>{@code {"format":3,"size":410,"log":"408-410-…-…","bases":[{"agent":"parent","log":"398-400-…-…"}]}}</pre>
 *
 * @param size messages in the whole history: {@code last.to()}
 * @param last the log entry ending the history
 * @param bases the other agents' logs holding the history's first messages, oldest first; empty when the agent's own
 *     log holds all of it
 */
public record LogDescriptor(int size, LogEntryId last, List<LogBase> bases) implements HistoryReference {
    /** The descriptor format of the message log. */
    public static final int FORMAT = 2;
    /** The descriptor format of a history whose first messages are in other agents' logs. */
    public static final int FORKED_FORMAT = 3;

    public LogDescriptor {
        Objects.requireNonNull(last, "last");
        bases = List.copyOf(bases);
        if (size != last.to()) {
            throw new IllegalArgumentException(
                    "the history has " + size + " messages but its last log entry ends at " + last.to());
        }
        int end = 0;
        for (LogBase base : bases) {
            if (base.last().to() <= end || base.last().to() > size) {
                throw new IllegalArgumentException(
                        "the bases of the history do not end in order within its " + size + " messages: " + bases);
            }
            end = base.last().to();
        }
        if (end == size && !bases.get(bases.size() - 1).last().equals(last)) {
            throw new IllegalArgumentException(
                    "the last base of the history ends where the history does but with another entry: " + bases);
        }
    }

    /** A history kept in the agent's own log alone. */
    public LogDescriptor(int size, LogEntryId last) {
        this(size, last, List.of());
    }

    @Override
    public String toJson() {
        if (bases.isEmpty()) {
            // numbers and an id of digits, '-' and hex need no escaping
            return "{\"format\":" + FORMAT + ",\"size\":" + size + ",\"log\":\"" + last.text() + "\"}";
        }
        ObjectNode root = HistoryReference.Json.MAPPER.createObjectNode();
        root.put("format", FORKED_FORMAT).put("size", size).put("log", last.text());
        ArrayNode array = root.putArray("bases");
        for (LogBase base : bases) {
            array.addObject()
                    .put("agent", base.agentId())
                    .put("log", base.last().text());
        }
        return root.toString();
    }

    /** Reads a format 2 or 3 tree. */
    static LogDescriptor parse(JsonNode root, String text, boolean forked) {
        int size = HistoryDescriptor.integer(root, "size");
        LogEntryId last = LogEntryId.parse(text(root, "log", text));
        if (!forked) {
            return new LogDescriptor(size, last);
        }
        JsonNode array = root.get("bases");
        if (array == null || !array.isArray() || array.isEmpty()) {
            throw new IllegalArgumentException("the history descriptor of a fork names no bases: " + text);
        }
        var bases = new ArrayList<LogBase>(array.size());
        for (JsonNode base : array) {
            if (!base.isObject()) {
                throw new IllegalArgumentException("a base of the history descriptor is not an object: " + text);
            }
            bases.add(new LogBase(text(base, "agent", text), LogEntryId.parse(text(base, "log", text))));
        }
        return new LogDescriptor(size, last, bases);
    }

    private static String text(JsonNode node, String field, String text) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException("the history descriptor lacks its '" + field + "': " + text);
        }
        return value.textValue();
    }
}
