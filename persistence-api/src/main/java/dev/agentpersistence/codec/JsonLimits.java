package dev.agentpersistence.codec;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointLimitException;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.Message;
import dev.agentpersistence.internal.StorageChecks;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Map;

/**
 * The limits of the JSON stored form, declared once and applied on both sides: the reader refuses a document beyond
 * them ({@link dev.agentpersistence.CorruptCheckpointException}), so the writer refuses such a checkpoint before
 * anything is stored ({@link CheckpointLimitException}). Every acknowledged save therefore reads back. The values are
 * Jackson's defaults:
 *
 * <ul>
 *   <li>{@value #MAX_NESTING_DEPTH} levels of nested objects and arrays in the whole document (the document itself is
 *       one, {@code state} two, a tool call's arguments four);
 *   <li>{@value #MAX_STRING_LENGTH} characters in one string value;
 *   <li>{@value #MAX_NAME_LENGTH} characters in one object key (state keys, metadata keys, JSON field names);
 *   <li>{@value #MAX_NUMBER_LENGTH} characters in one number's JSON text;
 *   <li>no unpaired surrogate (half an emoji) in an object key: the reader refuses it, so the writer throws
 *       {@link IllegalArgumentException} (string values keep unpaired surrogates exactly).
 * </ul>
 *
 * The check walks JSON trees without recursion, so a state nested 100,000 levels deep is a typed error, not a stack
 * overflow.
 */
public final class JsonLimits {
    /** Deepest nesting of objects and arrays in a document. */
    public static final int MAX_NESTING_DEPTH = 1000;
    /** Longest string value, in characters. */
    public static final int MAX_STRING_LENGTH = 20_000_000;
    /** Longest object key, in characters. */
    public static final int MAX_NAME_LENGTH = 50_000;
    /** Longest number, in characters of its JSON text. */
    public static final int MAX_NUMBER_LENGTH = 1000;

    private JsonLimits() {}

    /** The reader's constraints. */
    static StreamReadConstraints readConstraints() {
        return StreamReadConstraints.builder()
                .maxNestingDepth(MAX_NESTING_DEPTH)
                .maxStringLength(MAX_STRING_LENGTH)
                .maxNameLength(MAX_NAME_LENGTH)
                .maxNumberLength(MAX_NUMBER_LENGTH)
                .build();
    }

    /** The writer's constraints (a second line of defence behind {@link #check}). */
    static StreamWriteConstraints writeConstraints() {
        return StreamWriteConstraints.builder()
                .maxNestingDepth(MAX_NESTING_DEPTH)
                .build();
    }

    /**
     * Checks that the stored form of {@code checkpoint} stays within every limit.
     *
     * @throws CheckpointLimitException naming the limit and where it is exceeded
     * @throws IllegalArgumentException naming the key holding an unpaired surrogate and its index
     */
    public static void check(AgentCheckpoint checkpoint) {
        var check = new Check(checkpoint);
        check.text(checkpoint.checkpointId(), "checkpointId");
        check.text(checkpoint.nodeId(), "nodeId");
        check.text(checkpoint.lastInputType(), "lastInputType");
        check.text(checkpoint.parentCheckpointId(), "parentCheckpointId");
        check.strings(checkpoint.metadata(), "metadata", 2);
        check.node(checkpoint.lastInput(), 1, "lastInput");
        for (Map.Entry<String, JsonNode> entry : checkpoint.state().entrySet()) {
            check.name(entry.getKey(), "", "a state key");
            check.node(entry.getValue(), 2, "state[\"" + shortened(entry.getKey()) + "\"]");
        }
        int index = 0;
        for (Message message : checkpoint.messageHistory()) {
            check.message(message, index++);
        }
    }

    private static String shortened(String key) {
        return key.length() > 40 ? key.substring(0, 40) + "…" : key;
    }

    /** One checkpoint's check. */
    private static final class Check {
        private final AgentCheckpoint checkpoint;

        Check(AgentCheckpoint checkpoint) {
            this.checkpoint = checkpoint;
        }

        void text(String value, String where) {
            text(value, "", where);
        }

        /** Checks a string found at {@code prefix + where}; the place is joined only when the string is refused. */
        void text(String value, String prefix, String where) {
            if (tooLong(value)) {
                throw limit("string length", MAX_STRING_LENGTH, prefix + where);
            }
        }

        /**
         * Checks one message of the history. Saves check every message of every checkpoint, so the place is described
         * only for a message with metadata or a tool call, or over a limit.
         */
        void message(Message message, int index) {
            if (tooLong(message.content())) {
                throw limit("string length", MAX_STRING_LENGTH, "messageHistory[" + index + "].content");
            }
            if (message.metadata().isEmpty()
                    && message.toolCall() == null
                    && message.parts().isEmpty()) {
                return;
            }
            String where = "messageHistory[" + index + "]";
            for (int p = 0; p < message.parts().size(); p++) {
                part(message.parts().get(p), where + ".parts[" + p + "]");
            }
            strings(message.metadata(), where + ".metadata", 4);
            if (message.toolCall() != null) {
                text(message.toolCall().id(), where + ".toolCall.id");
                text(message.toolCall().toolName(), where + ".toolCall.toolName");
                node(message.toolCall().arguments(), 4, where + ".toolCall.arguments");
            }
        }

        private void part(ContentPart part, String where) {
            if (part instanceof ContentPart.Text text) {
                text(text.text(), where + ".text");
            } else if (part instanceof ContentPart.Media media) {
                text(media.url(), where + ".url");
                text(media.mimeType(), where + ".mimeType");
                text(media.name(), where + ".name");
                long base64Length = 4L * ((media.size() + 2) / 3);
                if (base64Length > MAX_STRING_LENGTH) {
                    throw limit(
                            "string length",
                            MAX_STRING_LENGTH,
                            where + ".data (" + media.size() + " bytes, " + base64Length + " characters in Base64)");
                }
            }
        }

        private static boolean tooLong(String value) {
            return value != null && value.length() > MAX_STRING_LENGTH;
        }

        /** Checks an object key found at {@code prefix + where}; the place is joined only when the key is refused. */
        void name(String key, String prefix, String where) {
            // Jackson writes a name holding half a surrogate pair but refuses to read it back
            StorageChecks.requireWellFormed(
                    key,
                    () -> "The name '" + shortened(key).replaceAll("\\p{Cs}", "?") + "' (" + prefix + where
                            + ") of checkpoint '" + checkpoint.checkpointId() + "'");
            if (key.length() > MAX_NAME_LENGTH) {
                throw limit("key length", MAX_NAME_LENGTH, prefix + where + " of " + key.length() + " characters");
            }
        }

        void strings(Map<String, String> values, String where, int depth) {
            if (depth > MAX_NESTING_DEPTH) {
                throw limit("nesting depth", MAX_NESTING_DEPTH, where);
            }
            values.forEach((key, value) -> {
                name(key, "a key of ", where);
                if (tooLong(value)) {
                    text(value, where, "[\"" + shortened(key) + "\"]");
                }
            });
        }

        /** Walks {@code root}, nested inside {@code enclosing} containers of the document, without recursion. */
        void node(JsonNode root, int enclosing, String where) {
            if (root == null) {
                return;
            }
            // one frame per open container: its remaining children, as (key or null, value)
            var open = new ArrayDeque<Iterator<Map.Entry<String, JsonNode>>>();
            visit(root, enclosing, where, open);
            while (!open.isEmpty()) {
                if (!open.peek().hasNext()) {
                    open.pop();
                    continue;
                }
                var child = open.peek().next();
                if (child.getKey() != null) {
                    name(child.getKey(), "a key in ", where);
                }
                visit(child.getValue(), enclosing + open.size(), where, open);
            }
        }

        private void visit(
                JsonNode node, int depthAbove, String where, ArrayDeque<Iterator<Map.Entry<String, JsonNode>>> open) {
            if (node.isContainerNode()) {
                if (depthAbove + 1 > MAX_NESTING_DEPTH) {
                    throw limit("nesting depth", MAX_NESTING_DEPTH, where);
                }
                open.push(node.isObject() ? node.fields() : elements(node));
            } else if (node.isTextual()) {
                text(node.textValue(), "a string in ", where);
            } else if ((node.isBigInteger() || node.isBigDecimal())
                    && node.asText().length() > MAX_NUMBER_LENGTH) {
                throw limit(
                        "number length",
                        MAX_NUMBER_LENGTH,
                        "a number of " + node.asText().length() + " characters in " + where);
            }
        }

        private static Iterator<Map.Entry<String, JsonNode>> elements(JsonNode array) {
            Iterator<JsonNode> elements = array.elements();
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return elements.hasNext();
                }

                @Override
                public Map.Entry<String, JsonNode> next() {
                    return new java.util.AbstractMap.SimpleImmutableEntry<>(null, elements.next());
                }
            };
        }

        private CheckpointLimitException limit(String name, long value, String where) {
            return new CheckpointLimitException(checkpoint.agentId(), checkpoint.checkpointId(), name, value, where);
        }
    }
}
