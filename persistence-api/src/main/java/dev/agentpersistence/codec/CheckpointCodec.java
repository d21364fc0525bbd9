package dev.agentpersistence.codec;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CorruptCheckpointException;

/**
 * Turns checkpoints into stored bytes and back. Providers store what {@link #encode} returns and hand it back to
 * {@link #decode}; layers such as compression or encryption wrap a codec.
 */
public interface CheckpointCodec {

    /** The stored form of {@code checkpoint}. Deterministic: equal checkpoints give equal bytes. */
    byte[] encode(AgentCheckpoint checkpoint);

    /**
     * Reads a stored document back.
     *
     * @throws CorruptCheckpointException when the bytes are not a complete document of a known format, or belong to
     *     another agent or checkpoint than {@code where}
     */
    AgentCheckpoint decode(byte[] document, CheckpointLocation where);

    /** The default codec: versioned JSON ({@link JsonCheckpointCodec}). */
    static CheckpointCodec json() {
        return JsonCheckpointCodec.instance();
    }
}
