package dev.agentpersistence.benchmarks.report;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.benchmarks.backend.BenchmarkedForm;
import dev.agentpersistence.benchmarks.fixture.Fixtures;
import dev.agentpersistence.codec.CheckpointCodec;

/** The sizes of the benchmark document, for the tables. */
final class DocumentSizes {
    private DocumentSizes() {}

    /** Bytes of the JSON document of the benchmark checkpoint with {@code messages} messages. */
    static double json(int messages) {
        return CheckpointCodec.json().encode(checkpoint(messages)).length;
    }

    /** Bytes the providers store for it (JSON with the default layers). */
    static double stored(int messages) {
        return BenchmarkedForm.codec().encode(checkpoint(messages)).length;
    }

    private static AgentCheckpoint checkpoint(int messages) {
        return Fixtures.checkpoint("read-10x" + messages, 9, Fixtures.history(messages));
    }
}
