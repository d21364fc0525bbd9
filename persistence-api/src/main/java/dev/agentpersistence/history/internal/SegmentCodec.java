package dev.agentpersistence.history.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.codec.CheckpointLocation;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Segment bytes: the messages as the history of a bare checkpoint document (id = segment id, version 0, created at the
 * epoch) written by a {@link CheckpointCodec}. Any layer that wraps the codec (compression, encryption, size limits)
 * therefore wraps segments too, and decoding checks that the bytes belong to this agent and segment.
 */
public final class SegmentCodec {
    private final CheckpointCodec codec;

    public SegmentCodec(CheckpointCodec codec) {
        this.codec = Objects.requireNonNull(codec, "codec");
    }

    /** The stored form of {@code messages} as segment {@code segmentId} of {@code agentId}. */
    public byte[] encode(String agentId, String segmentId, List<Message> messages) {
        return codec.encode(AgentCheckpoint.builder()
                .checkpointId(segmentId)
                .agentId(agentId)
                .version(0)
                .createdAt(Instant.EPOCH)
                .messageHistory(messages)
                .build());
    }

    /**
     * The messages of a stored segment.
     *
     * @throws dev.agentpersistence.CorruptCheckpointException when the bytes are not a segment of this agent and id
     */
    public List<Message> decode(String agentId, String segmentId, byte[] bytes, String where) {
        return codec.decode(bytes, new CheckpointLocation(agentId, segmentId, where))
                .messageHistory();
    }
}
