package dev.agentpersistence.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.ToolCall;
import dev.agentpersistence.internal.LegacyMessageIds;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The stored JSON form of a checkpoint, format version {@value #FORMAT_VERSION}:
 *
 * <pre>{@code
 * {"formatVersion":2,"checkpointId":"…","agentId":"…","version":3,"createdAt":"2026-01-01T00:00:00.123456789Z",
 *  "nodeId":"…","lastInput":{…},"lastInputType":"…","parentCheckpointId":"…",
 *  "metadata":{…},"state":{…},"messageHistory":[{"id":"…","role":"USER","content":"…",
 *  "parts":[{"type":"text","text":"…"},{"type":"image","mimeType":"image/png","data":"<Base64>"},
 *  {"type":"file","url":"https://…","name":"…"}],"toolCall":{…},"metadata":{…}}]}
 * }</pre>
 *
 * Absent optional fields are left out, so a {@code null} {@code lastInput} and a JSON {@code null} one stay distinct. A
 * document with a higher {@code formatVersion} is refused rather than half read. Format 1 (before message ids and
 * content parts) reads unchanged: its messages get the ids {@link LegacyMessageIds} derives, the same on every read.
 * Numbers come back as the JSON parser's natural node types (integers as the smallest fitting integer node, fractions
 * as doubles) unless a double would change them: then as big decimals ({@link ExactNumberNodes}). Reading and writing
 * apply the same {@link JsonLimits}.
 *
 * <p>Documents of the newest format in the shape this codec writes are read with Jackson's streaming parser straight
 * into records ({@link StreamingCheckpointReader}); every other document is read as a tree, which gives the same
 * checkpoint and reports what is wrong with a malformed one.
 */
public final class JsonCheckpointCodec implements CheckpointCodec {
    /** The newest format: the one {@link #instance()} writes, and the newest any instance reads. */
    public static final int FORMAT_VERSION = 2;
    /** The oldest format an instance can write (every instance reads every format up to {@link #FORMAT_VERSION}). */
    public static final int OLDEST_WRITABLE_FORMAT = 1;

    private static final JsonCheckpointCodec INSTANCE = new JsonCheckpointCodec(FORMAT_VERSION);
    private static final JsonCheckpointCodec FORMAT_1 = new JsonCheckpointCodec(1);

    private final JsonFactory factory = JsonTrees.FACTORY;
    private final int writeFormat;
    private final StreamingCheckpointReader fastPath = new StreamingCheckpointReader();

    private JsonCheckpointCodec(int writeFormat) {
        this.writeFormat = writeFormat;
    }

    /** The shared, stateless instance writing format {@value #FORMAT_VERSION}. */
    public static JsonCheckpointCodec instance() {
        return INSTANCE;
    }

    /**
     * An instance writing format {@code format}; all read every format. Format 1 is for a rolling upgrade while readers
     * of earlier releases still run: it stores no message ids (messages read back get the ids
     * {@linkplain #isDerivedMessageId derived} from their place and content) and refuses messages with content parts.
     *
     * @throws IllegalArgumentException for a format outside {@value #OLDEST_WRITABLE_FORMAT} to
     *     {@value #FORMAT_VERSION}
     */
    public static JsonCheckpointCodec writingFormat(int format) {
        if (format == FORMAT_VERSION) {
            return INSTANCE;
        }
        if (format == 1) {
            return FORMAT_1;
        }
        throw new IllegalArgumentException("format version " + format + " cannot be written; choose "
                + OLDEST_WRITABLE_FORMAT + " to " + FORMAT_VERSION);
    }

    /** The format new documents are written in. */
    public int writeFormat() {
        return writeFormat;
    }

    /** Whether {@code messageId} was derived on reading a message stored without an id (format 1). */
    public static boolean isDerivedMessageId(String messageId) {
        return LegacyMessageIds.isDerived(messageId);
    }

    /**
     * {@inheritDoc}
     *
     * @throws dev.agentpersistence.CheckpointLimitException when the checkpoint goes beyond a limit the reader applies
     *     ({@link JsonLimits})
     */
    @Override
    public byte[] encode(AgentCheckpoint checkpoint) {
        JsonLimits.check(checkpoint);
        var out = new ByteArrayOutputStream(sizeHint(checkpoint));
        try (JsonGenerator g = factory.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("formatVersion", writeFormat);
            g.writeStringField("checkpointId", checkpoint.checkpointId());
            g.writeStringField("agentId", checkpoint.agentId());
            g.writeNumberField("version", checkpoint.version());
            g.writeStringField("createdAt", InstantText.of(checkpoint.createdAt()));
            ContentParts.writeOptional(g, "nodeId", checkpoint.nodeId());
            if (checkpoint.lastInput() != null) {
                g.writeFieldName("lastInput");
                JsonTrees.mapper().writeTree(g, checkpoint.lastInput());
            }
            ContentParts.writeOptional(g, "lastInputType", checkpoint.lastInputType());
            ContentParts.writeOptional(g, "parentCheckpointId", checkpoint.parentCheckpointId());
            writeStrings(g, "metadata", checkpoint.metadata());
            g.writeObjectFieldStart("state");
            for (var entry : checkpoint.state().entrySet()) {
                g.writeFieldName(entry.getKey());
                JsonTrees.mapper().writeTree(g, entry.getValue());
            }
            g.writeEndObject();
            g.writeArrayFieldStart("messageHistory");
            for (Message message : checkpoint.messageHistory()) {
                writeMessage(g, message);
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not encode checkpoint '" + checkpoint.checkpointId() + "'", e);
        }
        return out.toByteArray();
    }

    /**
     * About the encoded size of a checkpoint of ASCII text, so that the output buffer of a long history is allocated
     * once instead of doubling a dozen times.
     */
    private static int sizeHint(AgentCheckpoint checkpoint) {
        long chars = 1024;
        for (Message message : checkpoint.messageHistory()) {
            chars += message.content().length() + 96;
        }
        return (int) Math.min(chars, 64 << 20);
    }

    /**
     * Encodes one message the way {@link #encode} does inside a checkpoint.
     *
     * @throws IllegalArgumentException when this instance writes format 1 and the message has content parts
     */
    public void writeMessage(JsonGenerator g, Message message) throws IOException {
        if (writeFormat == 1 && !message.parts().isEmpty()) {
            throw new IllegalArgumentException("Message '" + message.id() + "' has content parts, which format 1"
                    + " cannot store; write format " + FORMAT_VERSION + " (agent.persistence.format-version)");
        }
        writeMessage(g, message, writeFormat > 1);
    }

    /**
     * Encodes one message in the form of format {@value #FORMAT_VERSION}, with or without its id (written only when
     * {@code withId} and the message has a given id: none, or one derived on reading, is never stored); without an id
     * and content parts this is exactly format 1's form. History hash chains use it.
     */
    public static void writeMessage(JsonGenerator g, Message message, boolean withId) throws IOException {
        g.writeStartObject();
        if (withId && message.id() != null && !message.hasDerivedId()) {
            g.writeStringField("id", message.id());
        }
        g.writeStringField("role", message.role().name());
        JsonStrings.writeField(g, "content", message.content());
        if (!message.parts().isEmpty()) {
            g.writeArrayFieldStart("parts");
            for (ContentPart part : message.parts()) {
                ContentParts.write(g, part);
            }
            g.writeEndArray();
        }
        if (message.toolCall() != null) {
            ToolCall call = message.toolCall();
            g.writeObjectFieldStart("toolCall");
            g.writeStringField("id", call.id());
            g.writeStringField("toolName", call.toolName());
            g.writeFieldName("arguments");
            JsonTrees.mapper().writeTree(g, call.arguments());
            g.writeEndObject();
        }
        if (!message.metadata().isEmpty()) {
            writeStrings(g, "metadata", message.metadata());
        }
        g.writeEndObject();
    }

    @Override
    public AgentCheckpoint decode(byte[] document, CheckpointLocation where) {
        if (document == null || document.length == 0) {
            throw where.corrupt("the stored document is empty", null);
        }
        AgentCheckpoint checkpoint = fastPath.read(document).orElseGet(() -> readTree(document, where));
        if (!checkpoint.agentId().equals(where.agentId())) {
            throw where.corrupt("the document belongs to agent '" + checkpoint.agentId() + "'", null);
        }
        if (where.checkpointId() != null && !checkpoint.checkpointId().equals(where.checkpointId())) {
            throw where.corrupt("the document holds checkpoint '" + checkpoint.checkpointId() + "'", null);
        }
        return checkpoint;
    }

    /**
     * The checkpoint the streaming fast path reads from {@code document}, or empty when it leaves it to the tree path.
     */
    Optional<AgentCheckpoint> decodeStreaming(byte[] document) {
        return fastPath.read(document);
    }

    /** Reads any document of any format as a tree: the path that reports what is wrong with a document. */
    AgentCheckpoint readTree(byte[] document, CheckpointLocation where) {
        JsonNode root;
        try {
            root = JsonTrees.mapper().readTree(document);
        } catch (JsonProcessingException e) {
            throw where.corrupt("not valid JSON (" + e.getOriginalMessage() + ")", e);
        } catch (IOException e) {
            throw where.corrupt("unreadable (" + e.getMessage() + ")", e);
        }
        if (root == null || !root.isObject()) {
            throw where.corrupt("expected a JSON object", null);
        }
        JsonNode format = root.get("formatVersion");
        if (format == null || !format.canConvertToInt()) {
            throw where.corrupt("no formatVersion field", null);
        }
        if (format.intValue() > FORMAT_VERSION) {
            throw where.corrupt(
                    "format version " + format.intValue() + " is newer than this library reads (" + FORMAT_VERSION
                            + "); upgrade agent-persistence to read it",
                    null);
        }
        try {
            return read(root, format.intValue() == 1);
        } catch (PersistenceException | IllegalArgumentException | NullPointerException | DateTimeParseException e) {
            throw where.corrupt(e.getMessage(), e);
        }
    }

    private AgentCheckpoint read(JsonNode root, boolean format1) {
        var history = new ArrayList<Message>();
        JsonNode messages = required(root, "messageHistory");
        if (!messages.isArray()) {
            throw new IllegalArgumentException("messageHistory is not an array");
        }
        int index = 0;
        for (JsonNode message : messages) {
            history.add(readMessage(message, index++, format1));
        }
        var state = new LinkedHashMap<String, JsonNode>();
        Iterator<Map.Entry<String, JsonNode>> fields =
                objectField(root, "state").fields();
        fields.forEachRemaining(e -> state.put(e.getKey(), e.getValue()));
        JsonNode version = required(root, "version");
        if (!version.canConvertToLong() || !version.isIntegralNumber()) {
            throw new IllegalArgumentException("version is not an integer");
        }
        return new AgentCheckpoint(
                text(root, "checkpointId", true),
                text(root, "agentId", true),
                version.longValue(),
                Instant.parse(text(root, "createdAt", true)),
                text(root, "nodeId", false),
                root.get("lastInput"),
                text(root, "lastInputType", false),
                history,
                state,
                strings(root.get("metadata")),
                text(root, "parentCheckpointId", false));
    }

    private Message readMessage(JsonNode node, int index, boolean format1) {
        if (!node.isObject()) {
            throw new IllegalArgumentException("messageHistory[" + index + "] is not an object");
        }
        ToolCall call = null;
        JsonNode callNode = node.get("toolCall");
        if (callNode != null && !callNode.isNull()) {
            call = new ToolCall(
                    text(callNode, "id", true), text(callNode, "toolName", true), callNode.get("arguments"));
        }
        String id = text(node, "id", false);
        return new Message(
                id == null && format1 ? LegacyMessageIds.of(node, index) : id,
                Message.Role.valueOf(text(node, "role", true)),
                text(node, "content", false),
                ContentParts.read(node.get("parts"), index),
                call,
                strings(node.get("metadata")));
    }

    private static JsonNode required(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("missing field '" + field + "'");
        }
        return value;
    }

    private static JsonNode objectField(JsonNode node, String field) {
        JsonNode value = required(node, field);
        if (!value.isObject()) {
            throw new IllegalArgumentException("'" + field + "' is not an object");
        }
        return value;
    }

    private static String text(JsonNode node, String field, boolean required) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            if (required) {
                throw new IllegalArgumentException("missing field '" + field + "'");
            }
            return null;
        }
        if (!value.isTextual()) {
            throw new IllegalArgumentException("'" + field + "' is not a string");
        }
        return value.textValue();
    }

    private static Map<String, String> strings(JsonNode node) {
        if (node == null || node.isNull()) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("metadata is not an object");
        }
        var map = new LinkedHashMap<String, String>();
        node.fields().forEachRemaining(e -> {
            if (!e.getValue().isTextual()) {
                throw new IllegalArgumentException("metadata '" + e.getKey() + "' is not a string");
            }
            map.put(e.getKey(), e.getValue().textValue());
        });
        return map;
    }

    private static void writeStrings(JsonGenerator g, String field, Map<String, String> values) throws IOException {
        g.writeObjectFieldStart(field);
        for (var entry : values.entrySet()) {
            g.writeStringField(entry.getKey(), entry.getValue());
        }
        g.writeEndObject();
    }

    /** Helper for providers: whether two checkpoints have the same stored form. */
    public boolean sameContent(AgentCheckpoint a, AgentCheckpoint b) {
        return a.equals(b) || java.util.Arrays.equals(encode(a), encode(b));
    }
}
