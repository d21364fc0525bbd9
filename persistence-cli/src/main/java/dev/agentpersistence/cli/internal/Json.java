package dev.agentpersistence.cli.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
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

    /** Writes {@code <}, {@code >}, {@code &} and {@code '} as Unicode escapes, so no JSON text holds markup. */
    private static final ObjectWriter HTML_SAFE = MAPPER.writer().with(new HtmlSafeEscapes());

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

    /**
     * As {@link #line}, with every {@code <}, {@code >}, {@code &} and {@code '} inside strings written as a Unicode
     * escape: the same JSON value, but no stored text in it can be taken for HTML.
     */
    public static String htmlSafeLine(JsonNode node) {
        try {
            return HTML_SAFE.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The standard JSON escapes plus the characters that are significant in HTML. */
    private static final class HtmlSafeEscapes extends CharacterEscapes {
        private final int[] escapes;

        HtmlSafeEscapes() {
            escapes = CharacterEscapes.standardAsciiEscapesForJSON();
            for (char c : new char[] {'<', '>', '&', '\''}) {
                escapes[c] = CharacterEscapes.ESCAPE_STANDARD;
            }
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return escapes.clone();
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return null;
        }
    }
}
