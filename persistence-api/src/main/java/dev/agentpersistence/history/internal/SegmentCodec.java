package dev.agentpersistence.history.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.codec.CheckpointLocation;
import dev.agentpersistence.codec.LayeredCheckpointCodec;
import dev.agentpersistence.codec.LogEntryCodec;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Segment bytes. A tiered segment is the messages as the history of a bare checkpoint document (id = segment id,
 * version 0, created at the epoch) written by the codec, so any layer that wraps the codec (compression, encryption,
 * size limits) wraps segments too, and decoding checks that the bytes belong to this agent and segment. A message log
 * entry is written in the {@link LogEntryCodec} form, compressed against the log before it; entries of the earlier,
 * tiered form still read.
 */
public final class SegmentCodec {
    private final LayeredCheckpointCodec codec;
    private final LogEntryCodec entries;

    public SegmentCodec(LayeredCheckpointCodec codec) {
        this.codec = Objects.requireNonNull(codec, "codec");
        this.entries = new LogEntryCodec(codec);
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

    /** The stored form of log entry {@code entryId}, compressed against {@code dictionary}. */
    public LogEntryCodec.Entry encodeEntry(String agentId, String entryId, List<Message> messages, byte[] dictionary) {
        return entries.encode(agentId, entryId, messages, dictionary);
    }

    /**
     * The messages of a stored log entry of either form.
     *
     * @throws dev.agentpersistence.CorruptCheckpointException when the bytes are not an entry of this agent and id
     */
    public LogEntryCodec.Read decodeEntry(
            String agentId, String entryId, byte[] bytes, String where, byte[] dictionary) {
        return entries.decode(agentId, entryId, bytes, where, dictionary);
    }
}
