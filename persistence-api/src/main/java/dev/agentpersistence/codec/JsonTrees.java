package dev.agentpersistence.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The JSON factory of {@link JsonCheckpointCodec} and the mapper it reads and writes JSON trees with (state, inputs,
 * tool arguments, documents of older shapes). The mapper is built when it is first needed: a checkpoint without trees
 * is written, and one in the newest shape read, with the factory's streaming parser and generator alone, so a short
 * program's first save does not wait for Jackson's data binding to load.
 */
final class JsonTrees {
    /** Streaming parsers and generators with the codec's limits. */
    static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(JsonLimits.readConstraints())
            .streamWriteConstraints(JsonLimits.writeConstraints())
            .build();

    private JsonTrees() {}

    /** The mapper for JSON trees: exact numbers (big decimals for floats), over {@link #FACTORY}. */
    static ObjectMapper mapper() {
        return Mapper.INSTANCE;
    }

    /** Holds the mapper; the JVM builds it on the first call of {@link #mapper()}. */
    private static final class Mapper {
        static final ObjectMapper INSTANCE = new ObjectMapper(FACTORY)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .setNodeFactory(new ExactNumberNodes());
    }
}
