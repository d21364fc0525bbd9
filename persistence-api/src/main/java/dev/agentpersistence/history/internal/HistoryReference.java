package dev.agentpersistence.history.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What a stored checkpoint keeps in its reserved metadata entry about a history stored outside it, in one of two
 * formats: {@link HistoryDescriptor} (format 1: tiered segments plus the newest messages inline) and
 * {@link LogDescriptor} (format 2: the last entry of the agent's message log; format 3: the same for a fork, with the
 * parents' logs that hold its first messages). Every reader reads all three.
 */
public sealed interface HistoryReference permits HistoryDescriptor, LogDescriptor {
    /** Messages in the whole history. */
    int size();

    /** The JSON text as stored. */
    String toJson();

    /**
     * Reads either format.
     *
     * @throws IllegalArgumentException naming what is wrong, also for a format this version does not know
     */
    static HistoryReference parse(String text) {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "the history descriptor is not JSON (" + e.getOriginalMessage() + ")", e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("the history descriptor is not a JSON object");
        }
        int format = HistoryDescriptor.integer(root, "format");
        if (format == HistoryDescriptor.FORMAT) {
            return HistoryDescriptor.parse(root, text);
        }
        if (format == LogDescriptor.FORMAT || format == LogDescriptor.FORKED_FORMAT) {
            return LogDescriptor.parse(root, text, format == LogDescriptor.FORKED_FORMAT);
        }
        throw new IllegalArgumentException("history descriptor format " + format + " is not "
                + HistoryDescriptor.FORMAT + ", " + LogDescriptor.FORMAT + " or " + LogDescriptor.FORKED_FORMAT
                + "; upgrade agent-persistence to read it");
    }

    /** The mapper both formats read with. */
    final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper();

        private Json() {}
    }
}
