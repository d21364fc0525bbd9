package dev.agentpersistence.benchmarks.report;

import dev.agentpersistence.benchmarks.fixture.Fixtures;
import dev.agentpersistence.codec.CheckpointCodec;

/** The size of the benchmark document, for the tables. */
final class DocumentSizes {
    private DocumentSizes() {
    }

    /** Bytes of the JSON document of the benchmark checkpoint with {@code messages} messages. */
    static double of(int messages) {
        return CheckpointCodec.json().encode(Fixtures.checkpoint("read-10x" + messages, 9, Fixtures.history(messages))).length;
    }
}
