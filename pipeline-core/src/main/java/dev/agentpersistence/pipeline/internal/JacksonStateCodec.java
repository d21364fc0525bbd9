package dev.agentpersistence.pipeline.internal;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.agentpersistence.pipeline.StateCodec;
import java.util.Objects;

/** {@link StateCodec} over a Jackson {@link ObjectMapper}. */
public final class JacksonStateCodec<S> implements StateCodec<S> {
    private final ObjectMapper mapper;
    private final JavaType type;

    public JacksonStateCodec(ObjectMapper mapper, JavaType type) {
        this.mapper = mapper;
        this.type = type;
    }

    /** A mapper with {@code java.time} support writing dates as ISO strings. */
    public static ObjectMapper defaultMapper() {
        return JsonMapper.builder()
                .addModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .build();
    }

    @Override
    public JsonNode encode(S state) {
        Objects.requireNonNull(state, "state");
        return mapper.valueToTree(state);
    }

    @Override
    public S decode(JsonNode json) {
        Objects.requireNonNull(json, "json");
        return mapper.convertValue(json, type);
    }

    @Override
    public String toString() {
        return "StateCodec.jackson(" + type.toCanonical() + ")";
    }
}
