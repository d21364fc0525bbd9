package dev.agentpersistence.pipeline;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpersistence.pipeline.internal.JacksonStateCodec;
import java.util.Objects;

/**
 * Converts a pipeline state to JSON and back, so it can be checkpointed (and resumed in another JVM) and backed up
 * before each node attempt.
 *
 * <p>{@link #jackson(Class)} covers plain records and beans; {@link FileWorkspace#codec(java.nio.file.Path)} covers
 * state held in files.
 *
 * @param <S> the pipeline state type
 */
public interface StateCodec<S> {

    /** The JSON form of {@code state}; must not change {@code state}. */
    JsonNode encode(S state);

    /**
     * A state from its JSON form.
     *
     * @throws IllegalArgumentException when {@code json} is not a state of this codec
     */
    S decode(JsonNode json);

    /**
     * A backup of {@code state}, taken before a node attempt. The default keeps the JSON form in memory and restores by
     * decoding it, which also undoes in-place changes to mutable states.
     */
    default StateBackup<S> backup(S state) {
        JsonNode snapshot = encode(state);
        return StateBackup.inMemory(() -> decode(snapshot));
    }

    /** A codec mapping {@code type} with a Jackson mapper that knows {@code java.time} types. */
    static <S> StateCodec<S> jackson(Class<S> type) {
        Objects.requireNonNull(type, "type");
        ObjectMapper mapper = JacksonStateCodec.defaultMapper();
        return new JacksonStateCodec<>(mapper, mapper.constructType(type));
    }

    /** A codec mapping a generic type, e.g. {@code new TypeReference<Map<String, List<String>>>() {}}. */
    static <S> StateCodec<S> jackson(TypeReference<S> type) {
        Objects.requireNonNull(type, "type");
        ObjectMapper mapper = JacksonStateCodec.defaultMapper();
        return new JacksonStateCodec<>(mapper, mapper.getTypeFactory().constructType(type));
    }

    /** A codec mapping {@code type} with the given mapper. */
    static <S> StateCodec<S> jackson(ObjectMapper mapper, Class<S> type) {
        Objects.requireNonNull(mapper, "mapper");
        Objects.requireNonNull(type, "type");
        return new JacksonStateCodec<>(mapper, mapper.constructType(type));
    }

    /** A codec mapping {@code type} with the given mapper. */
    static <S> StateCodec<S> jackson(ObjectMapper mapper, JavaType type) {
        Objects.requireNonNull(mapper, "mapper");
        Objects.requireNonNull(type, "type");
        return new JacksonStateCodec<>(mapper, type);
    }
}
