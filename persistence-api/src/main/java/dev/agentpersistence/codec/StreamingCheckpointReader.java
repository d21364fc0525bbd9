package dev.agentpersistence.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.ToolCall;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The fast path of {@link JsonCheckpointCodec#decode}: reads a checkpoint document of the newest format straight into
 * records with Jackson's streaming parser, without building a tree of the whole document (only free-form JSON values —
 * input, state, tool arguments, content parts — become trees).
 *
 * <p>It only takes documents in the shape the codec writes: format {@value JsonCheckpointCodec#FORMAT_VERSION} named
 * first, every field once, every value of its type. For anything else (an older format, a malformed or unexpected
 * document) it returns empty and the codec reads the document as a tree, which decides what it holds or what is wrong
 * with it. So both paths give the same checkpoint for every document the fast path takes, and every error comes from
 * one place.
 */
final class StreamingCheckpointReader {
    StreamingCheckpointReader() {}

    /** The checkpoint in {@code document}, or empty when the tree path has to read it. */
    Optional<AgentCheckpoint> read(byte[] document) {
        try (JsonParser p = JsonTrees.FACTORY.createParser(document)) {
            return Optional.of(checkpoint(p));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private AgentCheckpoint checkpoint(JsonParser p) throws IOException {
        expect(p.nextToken() == JsonToken.START_OBJECT
                && "formatVersion".equals(p.nextFieldName())
                && p.nextToken() == JsonToken.VALUE_NUMBER_INT
                && p.getNumberType() == JsonParser.NumberType.INT
                && p.getIntValue() == JsonCheckpointCodec.FORMAT_VERSION);
        Set<String> seen = new HashSet<>();
        String checkpointId = null;
        String agentId = null;
        long version = -1;
        Instant createdAt = null;
        String nodeId = null;
        JsonNode lastInput = null;
        String lastInputType = null;
        String parentCheckpointId = null;
        Map<String, String> metadata = Map.of();
        Map<String, JsonNode> state = null;
        List<Message> history = null;
        String field;
        while ((field = p.nextFieldName()) != null) {
            expect(seen.add(field));
            JsonToken token = p.nextToken();
            switch (field) {
                case "checkpointId" -> checkpointId = text(p, token);
                case "agentId" -> agentId = text(p, token);
                case "version" -> version = integer(p, token);
                case "createdAt" -> createdAt = Instant.parse(text(p, token));
                case "nodeId" -> nodeId = text(p, token);
                case "lastInput" -> lastInput = JsonTrees.mapper().readTree(p);
                case "lastInputType" -> lastInputType = text(p, token);
                case "parentCheckpointId" -> parentCheckpointId = text(p, token);
                case "metadata" -> metadata = strings(p, token);
                case "state" -> state = jsonValues(p, token);
                case "messageHistory" -> history = messages(p, token);
                default -> p.skipChildren();
            }
        }
        expect(p.currentToken() == JsonToken.END_OBJECT
                && p.nextToken() == null
                && checkpointId != null
                && agentId != null
                && version >= 0
                && createdAt != null
                && state != null
                && history != null);
        return new AgentCheckpoint(
                checkpointId,
                agentId,
                version,
                createdAt,
                nodeId,
                lastInput,
                lastInputType,
                history,
                state,
                metadata,
                parentCheckpointId);
    }

    private List<Message> messages(JsonParser p, JsonToken token) throws IOException {
        expect(token == JsonToken.START_ARRAY);
        var messages = new ArrayList<Message>();
        while (p.nextToken() == JsonToken.START_OBJECT) {
            messages.add(message(p, messages.size()));
        }
        expect(p.currentToken() == JsonToken.END_ARRAY);
        return messages;
    }

    private Message message(JsonParser p, int index) throws IOException {
        String id = null;
        String role = null;
        String content = null;
        JsonNode parts = null;
        ToolCall call = null;
        Map<String, String> metadata = Map.of();
        int seen = 0;
        String field;
        while ((field = p.nextFieldName()) != null) {
            JsonToken token = p.nextToken();
            int bit = switch (field) {
                case "id" -> {
                    id = text(p, token);
                    yield 1;
                }
                case "role" -> {
                    role = text(p, token);
                    yield 2;
                }
                case "content" -> {
                    content = text(p, token);
                    yield 4;
                }
                case "parts" -> {
                    parts = JsonTrees.mapper().readTree(p);
                    yield 8;
                }
                case "toolCall" -> {
                    call = toolCall(p, token);
                    yield 16;
                }
                case "metadata" -> {
                    metadata = strings(p, token);
                    yield 32;
                }
                default -> throw NOT_FAST;
            };
            expect((seen & bit) == 0);
            seen |= bit;
        }
        expect(role != null);
        return new Message(id, Message.Role.valueOf(role), content, ContentParts.read(parts, index), call, metadata);
    }

    private ToolCall toolCall(JsonParser p, JsonToken token) throws IOException {
        expect(token == JsonToken.START_OBJECT);
        JsonNode node = JsonTrees.mapper().readTree(p);
        JsonNode id = node.get("id");
        JsonNode name = node.get("toolName");
        expect(id != null && id.isTextual() && name != null && name.isTextual());
        return new ToolCall(id.textValue(), name.textValue(), node.get("arguments"));
    }

    private static Map<String, String> strings(JsonParser p, JsonToken token) throws IOException {
        expect(token == JsonToken.START_OBJECT);
        var map = new LinkedHashMap<String, String>();
        String key;
        while ((key = p.nextFieldName()) != null) {
            expect(p.nextToken() == JsonToken.VALUE_STRING);
            map.put(key, p.getText());
        }
        return map;
    }

    private Map<String, JsonNode> jsonValues(JsonParser p, JsonToken token) throws IOException {
        expect(token == JsonToken.START_OBJECT);
        var map = new LinkedHashMap<String, JsonNode>();
        String key;
        while ((key = p.nextFieldName()) != null) {
            p.nextToken();
            map.put(key, JsonTrees.mapper().readTree(p));
        }
        return map;
    }

    private static String text(JsonParser p, JsonToken token) throws IOException {
        expect(token == JsonToken.VALUE_STRING);
        return p.getText();
    }

    private static long integer(JsonParser p, JsonToken token) throws IOException {
        expect(token == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER);
        return p.getLongValue();
    }

    /** Leaves the fast path unless {@code condition} holds. */
    private static void expect(boolean condition) {
        if (!condition) {
            throw NOT_FAST;
        }
    }

    /** Thrown to leave the fast path; carries no stack trace, as it is never reported. */
    private static final RuntimeException NOT_FAST =
            new RuntimeException("not in the shape the fast path reads", null, false, false) {};
}
