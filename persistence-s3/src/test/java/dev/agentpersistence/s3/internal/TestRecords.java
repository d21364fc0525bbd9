package dev.agentpersistence.s3.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.backend.DocumentIdentity;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.codec.CheckpointLocation;

/** Checkpoints as the storage shell hands them to the backend (plain JSON documents), for tests of the internals. */
public final class TestRecords {
    /** What the shell would give the backend to read identities of plain JSON documents. */
    public static final DocumentIdentity IDENTITY = (agentId, checkpointId, document, where) -> {
        var stored = CheckpointCodec.json().decode(document, new CheckpointLocation(agentId, checkpointId, where));
        return new DocumentIdentity.Identity(stored.checkpointId(), stored.version());
    };

    private TestRecords() {}

    /** The record of {@code checkpoint} with a plain JSON document. */
    public static StoredCheckpoint stored(AgentCheckpoint checkpoint) {
        return new StoredCheckpoint(
                checkpoint.agentId(),
                checkpoint.checkpointId(),
                checkpoint.version(),
                checkpoint.createdAt(),
                null,
                checkpoint.nodeId(),
                checkpoint.isTombstone(),
                checkpoint.metadata(),
                CheckpointCodec.json().encode(checkpoint));
    }
}
