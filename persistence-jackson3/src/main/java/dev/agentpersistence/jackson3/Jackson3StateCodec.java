package dev.agentpersistence.jackson3;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.pipeline.StateCodec;
import tools.jackson.databind.JavaType;

/** A pipeline state codec over a {@link Jackson3Mapping}; made by {@link Jackson3Mapping#stateCodec}. */
final class Jackson3StateCodec<S> implements StateCodec<S> {
    private final Jackson3Mapping mapping;
    private final JavaType type;

    Jackson3StateCodec(Jackson3Mapping mapping, JavaType type) {
        this.mapping = mapping;
        this.type = type;
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
