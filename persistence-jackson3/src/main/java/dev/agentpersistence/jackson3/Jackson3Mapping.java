package dev.agentpersistence.jackson3;

import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * A Jackson 3 application's own {@link JsonMapper} (its modules, naming, date formats) applied to what the data model
 * stores as JSON: checkpoint state values, node inputs, tool arguments, and pipeline states
 * ({@link Jackson3StateCodec}). The trees are converted exactly ({@link Jackson3Nodes}), so a value stored through this
 * mapping is stored in the same bytes as the same tree built with Jackson 2, and reads back through either.
 *
 * <p>Immutable and thread-safe when the mapper is (a {@link JsonMapper} is).
 */
public final class Jackson3Mapping {
    private final JsonMapper mapper;

    private Jackson3Mapping(JsonMapper mapper) {
        this.mapper = mapper;
    }

    /** A mapping with the application's mapper. */
    public static Jackson3Mapping of(JsonMapper mapper) {
        return new Jackson3Mapping(Objects.requireNonNull(mapper, "mapper"));
    }

    /** A mapping with a plain {@link JsonMapper} (Jackson 3 maps {@code java.time} types out of the box). */
    public static Jackson3Mapping ofDefaults() {
        return of(JsonMapper.builder().build());
    }

    /** The mapper this mapping applies. */
    public JsonMapper mapper() {
        return mapper;
    }

    /**
     * The stored JSON form of {@code value}, as the mapper writes it; {@code null} stays {@code null}.
     *
     * @throws IllegalArgumentException when the mapper cannot write the value
     */
    public com.fasterxml.jackson.databind.JsonNode toStored(Object value) {
        if (value == null) {
            return null;
        }
        try {
            return Jackson3Nodes.toStored(mapper.valueToTree(value));
        } catch (JacksonException e) {
            throw new IllegalArgumentException(
                    "cannot map a " + value.getClass().getName() + " to JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * A value of {@code type} read from its stored JSON form; {@code null} stays {@code null}.
     *
     * @throws IllegalArgumentException when the JSON is not a value of {@code type}
     */
    public <T> T fromStored(com.fasterxml.jackson.databind.JsonNode json, Class<T> type) {
        Objects.requireNonNull(type, "type");
        return fromStored(json, mapper.constructType(type));
    }

    /** As {@link #fromStored(com.fasterxml.jackson.databind.JsonNode, Class)} for a generic type. */
    public <T> T fromStored(com.fasterxml.jackson.databind.JsonNode json, TypeReference<T> type) {
        Objects.requireNonNull(type, "type");
        return fromStored(json, mapper.getTypeFactory().constructType(type));
    }

    /** As {@link #fromStored(com.fasterxml.jackson.databind.JsonNode, Class)} for a constructed type. */
    public <T> T fromStored(com.fasterxml.jackson.databind.JsonNode json, JavaType type) {
        if (json == null) {
            return null;
        }
        try {
            return mapper.treeToValue(Jackson3Nodes.fromStored(json), type);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(
                    "stored JSON is not a " + type.toCanonical() + ": " + e.getOriginalMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "Jackson3Mapping[" + mapper.getClass().getSimpleName() + "]";
    }
}
