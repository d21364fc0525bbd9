package dev.agentpersistence.storage.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.codec.CheckpointLocation;

/**
 * Turns one stored document into its stored form (history not yet expanded), checking that it is where the backend
 * filed it: the agent, the checkpoint id when known, the version, and a size within the maximum before anything is
 * decoded.
 */
public final class DocumentDecoder {
    private final StorageBackend backend;
    private final CheckpointCodec codec;
    private final long maxSize;

    public DocumentDecoder(StorageBackend backend, CheckpointCodec codec, long maxSize) {
        this.backend = backend;
        this.codec = codec;
        this.maxSize = maxSize;
    }

    /**
     * The stored form of {@code record}, read for {@code agentId}.
     *
     * @throws CorruptCheckpointException naming agent, checkpoint and location when it is unreadable or misfiled
     */
    public AgentCheckpoint decode(String agentId, StoredDocument record) {
        String where = record.location() != null ? record.location() : backend.location(agentId, record.checkpointId());
        if (!record.agentId().equals(agentId)) {
            throw corrupt(
                    agentId,
                    record.checkpointId(),
                    where,
                    "the backend returned a record of agent '" + record.agentId() + "'");
        }
        if (record.size() > maxSize) {
            throw corrupt(
                    agentId,
                    record.checkpointId(),
                    where,
                    "the stored document has " + record.size() + " bytes, more than the maximum checkpoint size of "
                            + maxSize);
        }
        AgentCheckpoint stored =
                codec.decode(record.document(), new CheckpointLocation(agentId, record.checkpointId(), where));
        if (stored.version() != record.version()) {
            throw corrupt(
                    agentId,
                    stored.checkpointId(),
                    where,
                    "the document holds version " + stored.version() + " but is filed as version " + record.version());
        }
        return stored;
    }

    private static CorruptCheckpointException corrupt(
            String agentId, String checkpointId, String where, String problem) {
        return new CorruptCheckpointException(agentId, checkpointId, where, problem, null);
    }
}
