package dev.agentpersistence.cli.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.codec.CheckpointLocation;
import dev.agentpersistence.codec.JsonCheckpointCodec;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The JSON the commands print and read. A checkpoint is written in the project's stored JSON form
 * ({@link JsonCheckpointCodec}, with its {@code formatVersion}), so what {@code show --json} prints and what
 * {@code export} writes is what every provider reads.
 */
public final class Json {
    /** The shared mapper; decimals are read exactly, so a checkpoint read from a line is the one written. */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();

    private static final JsonCheckpointCodec CODEC = JsonCheckpointCodec.instance();

    private Json() {}

    /** A new empty object. */
    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** A new empty array. */
    public static ArrayNode array() {
        return MAPPER.createArrayNode();
    }

    /** The checkpoint in the stored JSON form. */
    public static JsonNode checkpoint(AgentCheckpoint checkpoint) {
        try {
            return MAPPER.readTree(CODEC.encode(checkpoint));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The checkpoint's stored JSON form as bytes (what digests are computed over). */
    public static byte[] bytes(AgentCheckpoint checkpoint) {
        return CODEC.encode(checkpoint);
    }

    /** The checkpoint a stored JSON form holds; {@code where} names it in errors. */
    public static AgentCheckpoint checkpoint(JsonNode json, CheckpointLocation where) {
        try {
            return CODEC.decode(MAPPER.writeValueAsBytes(json), where);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A message in the stored JSON form, id included. */
    public static JsonNode message(Message message) {
        try (var buffer = new TokenBuffer(MAPPER, false)) {
            JsonCheckpointCodec.writeMessage(buffer, message, true);
            return MAPPER.readTree(buffer.asParser());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One line of compact JSON. */
    public static String line(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
