package dev.agentpersistence.history.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.codec.CheckpointCodec;
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
    private final CheckpointCodec documents;
    private final LogEntryCodec entries;
    private final PartsByReference parts;

    /** Segments and entries that hold every part inline. */
    public SegmentCodec(LayeredCheckpointCodec codec) {
        this(codec, codec, PartsByReference.NONE);
    }

    /**
     * Segments and entries whose large parts {@code parts} stores by reference: {@code documents} (which wraps
     * {@code codec}) writes and reads the bare checkpoint documents, resolving references. An entry holding such a part
     * is written as such a document (the earlier entry form, which every reader reads), so that what it references can
     * be found without the history before it; every other entry is written in the compressed form.
     */
    public SegmentCodec(LayeredCheckpointCodec codec, CheckpointCodec documents, PartsByReference parts) {
        this.codec = Objects.requireNonNull(codec, "codec");
        this.documents = Objects.requireNonNull(documents, "documents");
        this.entries = new LogEntryCodec(codec);
        this.parts = Objects.requireNonNull(parts, "parts");
    }

    /** Which parts of the messages written are stored by reference, and how references are resolved on reading. */
    public interface PartsByReference {
        /** Every part inline. */
        PartsByReference NONE = new PartsByReference() {
            @Override
            public boolean storesByReference(List<Message> messages) {
                return false;
            }

            @Override
            public List<Message> resolve(List<Message> stored, CheckpointLocation where) {
                return stored;
            }
        };

        /** Whether a document of {@code messages} would hold a part by reference. */
        boolean storesByReference(List<Message> messages);

        /** {@code stored} with the parts they hold by reference resolved and verified. */
        List<Message> resolve(List<Message> stored, CheckpointLocation where);
    }

    /** The stored form of {@code messages} as segment {@code segmentId} of {@code agentId}. */
    public byte[] encode(String agentId, String segmentId, List<Message> messages) {
        return documents.encode(AgentCheckpoint.builder()
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
        return documents
                .decode(bytes, new CheckpointLocation(agentId, segmentId, where))
                .messageHistory();
    }

    /**
     * The messages of a stored segment or log entry as stored, references unresolved; none for an entry of the
     * compressed form, which never holds a reference.
     *
     * @throws dev.agentpersistence.CorruptCheckpointException when the bytes are not readable
     */
    public List<Message> storedMessages(String agentId, String segmentId, byte[] bytes, String where) {
        if (entries.isCompressedForm(agentId, segmentId, bytes, where)) {
            return List.of();
        }
        return codec.decode(bytes, new CheckpointLocation(agentId, segmentId, where))
                .messageHistory();
    }

    /** The stored form of log entry {@code entryId}, compressed against {@code dictionary}. */
    public LogEntryCodec.Entry encodeEntry(String agentId, String entryId, List<Message> messages, byte[] dictionary) {
        if (parts.storesByReference(messages)) {
            return new LogEntryCodec.Entry(encode(agentId, entryId, messages), LogEntryCodec.text(messages));
        }
        return entries.encode(agentId, entryId, messages, dictionary);
    }

    /**
     * The messages of a stored log entry of either form.
     *
     * @throws dev.agentpersistence.CorruptCheckpointException when the bytes are not an entry of this agent and id
     */
    public LogEntryCodec.Read decodeEntry(
            String agentId, String entryId, byte[] bytes, String where, byte[] dictionary) {
        LogEntryCodec.Read read = entries.decode(agentId, entryId, bytes, where, dictionary);
        List<Message> resolved = parts.resolve(read.messages(), new CheckpointLocation(agentId, entryId, where));
        // the text of an entry is that of the messages as written, with their parts inline
        return resolved == read.messages() ? read : new LogEntryCodec.Read(resolved, LogEntryCodec.text(resolved));
    }
}
