package dev.agentpersistence.langchain4j.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.UncheckedIOException;

/** The one JSON mapper of the adapter. */
public final class LangChain4jJson {
    public static final JsonMapper MAPPER = JsonMapper.builder().build();

    private LangChain4jJson() {}

    /** {@code node} as compact JSON. */
    public static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code text}, which this adapter wrote, parsed. */
    public static JsonNode read(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
