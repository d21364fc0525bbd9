package dev.agentpersistence.jackson3;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.pipeline.StateCodec;
import java.util.Objects;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JavaType;

/**
 * A pipeline state codec over a {@link Jackson3Mapping}: the state is mapped by the application's Jackson 3 mapper.
 * Needs {@code pipeline-core} on the class path (an optional dependency of this module).
 *
 * @param <S> the pipeline state type
 */
public final class Jackson3StateCodec<S> implements StateCodec<S> {
    private final Jackson3Mapping mapping;
    private final JavaType type;

    private Jackson3StateCodec(Jackson3Mapping mapping, JavaType type) {
        this.mapping = mapping;
        this.type = type;
    }

    /** A codec mapping {@code type} with {@code mapping}'s mapper. */
    public static <S> Jackson3StateCodec<S> of(Jackson3Mapping mapping, Class<S> type) {
        Objects.requireNonNull(mapping, "mapping");
        Objects.requireNonNull(type, "type");
        return new Jackson3StateCodec<>(mapping, mapping.mapper().constructType(type));
    }

    /** A codec mapping a generic type with {@code mapping}'s mapper. */
    public static <S> Jackson3StateCodec<S> of(Jackson3Mapping mapping, TypeReference<S> type) {
        Objects.requireNonNull(mapping, "mapping");
        Objects.requireNonNull(type, "type");
        return new Jackson3StateCodec<>(
                mapping, mapping.mapper().getTypeFactory().constructType(type));
    }

    @Override
    public JsonNode encode(S state) {
        JsonNode json = mapping.toStored(state);
        if (json == null) {
            throw new IllegalArgumentException("a pipeline state must not be null");
        }
        return json;
    }

    @Override
    public S decode(JsonNode json) {
        if (json == null || json.isNull()) {
            throw new IllegalArgumentException("no stored state to decode as " + type.toCanonical());
        }
        return mapping.fromStored(json, type);
    }

    @Override
    public String toString() {
        return "Jackson3StateCodec[" + type.toCanonical() + "]";
    }
}
