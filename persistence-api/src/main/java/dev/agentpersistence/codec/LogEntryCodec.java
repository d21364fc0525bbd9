package dev.agentpersistence.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointTooLargeException;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The stored form of one message log entry, compressed against the log before it. The entry's messages are written in
 * their canonical JSON form ({@link JsonCheckpointCodec#writeMessage(JsonGenerator, Message, boolean)} with ids), each
 * followed by a comma: the entry's <em>message text</em>. When the layers compress, the text is deflated (raw, RFC
 * 1951) with a preset dictionary: the last {@value #WRITTEN_DICTIONARY_SIZE} bytes (or fewer, as the header says) of
 * the message text of the history before the entry, which a reader has, since it reads a log's entries in order; a
 * reader accepts up to {@value #DICTIONARY_SIZE}. Then it is encrypted when the layers encrypt.
 *
 * <pre>
 * A9 'A' 'P' 'L' | 01 (format) | 00 (the text as it is) or 01 (deflated against the dictionary)
 *     | text length (4 bytes, big-endian) | dictionary length (4 bytes, big-endian) | text or deflate data
 * </pre>
 *
 * The frame holds no id and no checksum: the entry's id names the hash chain value over its messages, which the reader
 * checks. Reading also takes the earlier form, a bare checkpoint document inside {@link DocumentLayers} (which is still
 * the form of tiered segments). Reads are bounded as documents are: a text declared over the maximum document size or
 * over what its deflate data can hold is refused before anything is allocated. Immutable and thread-safe.
 */
public final class LogEntryCodec {
    /** The most message text before an entry that its compression may refer to, in bytes (deflate's window). */
    public static final int DICTIONARY_SIZE = 32 << 10;
    /**
     * How much of the message text before an entry a writer compresses it against, in bytes: most of the gain of the
     * whole window at a fraction of its cost per save (deflate reads the dictionary into its tables on every entry).
     */
    public static final int WRITTEN_DICTIONARY_SIZE = 8 << 10;
    /**
     * The deflate level of entries when the layers compress with LZ4 (with deflate, the layers' own level): the
     * fastest, because the dictionary, not a longer match search, is what finds the repeats in an entry of a few
     * messages.
     */
    public static final int LEVEL = 1;

    static final byte[] MAGIC = {(byte) 0xA9, 'A', 'P', 'L'};
    static final int FORMAT = 1;
    private static final int STORED = 0;
    private static final int DEFLATED = 1;
    private static final int HEADER = MAGIC.length + 2 + 2 * Integer.BYTES;

    private final LayeredCheckpointCodec codec;

    /** Entries wrapped in {@code codec}'s layers and held to its maximum document size. */
    public LogEntryCodec(LayeredCheckpointCodec codec) {
        this.codec = Objects.requireNonNull(codec, "codec");
    }

    /** A stored entry and its message text. */
    public record Entry(byte[] stored, byte[] text) {}

    /** The messages of a read entry and their message text. */
    public record Read(List<Message> messages, byte[] text) {}

    /**
     * The stored form of {@code messages} as entry {@code entryId} of {@code agentId}, compressed against
     * {@code dictionary} (the {@link #dictionary} of the history before it).
     *
     * @throws CheckpointTooLargeException when the text or the stored entry exceeds the maximum document size
     */
    public Entry encode(String agentId, String entryId, List<Message> messages, byte[] dictionary) {
        JsonLimits.check(bare(agentId, entryId, messages));
        byte[] text = text(messages);
        long max = codec.maxDocumentSize();
        if (text.length > max) {
            throw new CheckpointTooLargeException(agentId, entryId, text.length, max);
        }
        DocumentLayers layers = codec.layers();
        byte[] frame = null;
        int against = 0;
        if (layers.compresses()) {
            int level =
                    layers.compressionAlgorithm() == CompressionAlgorithm.DEFLATE ? layers.compressionLevel() : LEVEL;
            var deflater = new Deflater(level, true);
            against = Math.min(dictionary.length, WRITTEN_DICTIONARY_SIZE);
            try {
                if (against > 0) {
                    deflater.setDictionary(dictionary, dictionary.length - against, against);
                }
                frame = DeflateLayer.deflate(deflater, text, HEADER);
            } finally {
                deflater.end();
            }
        }
        int method = DEFLATED;
        if (frame == null) {
            method = STORED;
            frame = new byte[HEADER + text.length];
            System.arraycopy(text, 0, frame, HEADER, text.length);
        }
        System.arraycopy(MAGIC, 0, frame, 0, MAGIC.length);
        frame[MAGIC.length] = (byte) FORMAT;
        frame[MAGIC.length + 1] = (byte) method;
        Bytes.writeInt(frame, MAGIC.length + 2, text.length);
        Bytes.writeInt(frame, MAGIC.length + 2 + Integer.BYTES, method == STORED ? 0 : against);
        byte[] stored = layers.encryptOnly(frame);
        if (stored.length > max) {
            throw new CheckpointTooLargeException(agentId, entryId, stored.length, max);
        }
        return new Entry(stored, text);
    }

    /**
     * The messages of stored entry {@code entryId} of {@code agentId}, in this form or the earlier one.
     *
     * @param dictionary the {@link #dictionary} of the history before the entry
     * @param where where the entry is, for messages
     * @throws CorruptCheckpointException when the bytes are not a readable entry of this agent and id
     */
    public Read decode(String agentId, String entryId, byte[] stored, String where, byte[] dictionary) {
        var location = new CheckpointLocation(agentId, entryId, where);
        long max = codec.maxDocumentSize();
        byte[] plain = codec.layers().unwrap(stored, location, max);
        if (!isEntry(plain)) {
            List<Message> messages = codec.inner().decode(plain, location).messageHistory();
            return new Read(messages, text(messages));
        }
        if (plain.length < HEADER) {
            throw corrupt(location, "the message log entry is truncated (no header)");
        }
        int format = plain[MAGIC.length] & 0xFF;
        if (format != FORMAT) {
            throw corrupt(
                    location, "message log entry format " + format + " is not one this library reads (" + FORMAT + ")");
        }
        int method = plain[MAGIC.length + 1] & 0xFF;
        long length = Integer.toUnsignedLong(Bytes.readInt(plain, MAGIC.length + 2));
        long against = Integer.toUnsignedLong(Bytes.readInt(plain, MAGIC.length + 2 + Integer.BYTES));
        byte[] text;
        if (method == STORED) {
            if (length != plain.length - HEADER || against != 0) {
                throw corrupt(location, "the message log entry's header does not match its " + plain.length + " bytes");
            }
            text = Arrays.copyOfRange(plain, HEADER, plain.length);
        } else if (method == DEFLATED) {
            if (against > dictionary.length) {
                throw corrupt(
                        location,
                        "the message log entry was compressed against " + against
                                + " bytes of the history before it, but that history has " + dictionary.length);
            }
            CompressionLayer.checkDeclaredLength(
                    length,
                    plain.length - HEADER,
                    DeflateLayer.MAX_RATIO,
                    location,
                    Math.min(max, CompressionLayer.MAX_LENGTH),
                    "the maximum checkpoint size");
            var inflater = new Inflater(true);
            try {
                if (against > 0) {
                    inflater.setDictionary(dictionary, (int) (dictionary.length - against), (int) against);
                }
                inflater.setInput(plain, HEADER, plain.length - HEADER);
                text = DeflateLayer.inflate(inflater, length, location);
            } finally {
                inflater.end();
            }
        } else {
            throw corrupt(location, "message log entry compression " + method + " is not one this library reads");
        }
        return new Read(messages(agentId, entryId, text, location), text);
    }

    /** The message text of {@code messages}: each in canonical JSON with its id, followed by a comma. */
    public static byte[] text(List<Message> messages) {
        var out = new ByteArrayOutputStream(messages.size() * 256);
        try (JsonGenerator g = JsonTrees.FACTORY.createGenerator(out)) {
            g.setRootValueSeparator(null);
            for (Message message : messages) {
                JsonCheckpointCodec.writeMessage(g, message, true);
                g.writeRaw(',');
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not encode messages", e);
        }
        return out.toByteArray();
    }

    /** The last up to {@value #DICTIONARY_SIZE} bytes of {@code head} followed by each of {@code texts}. */
    public static byte[] dictionary(byte[] head, List<byte[]> texts) {
        long total = head.length;
        for (byte[] text : texts) {
            total += text.length;
        }
        int length = (int) Math.min(DICTIONARY_SIZE, total);
        byte[] out = new byte[length];
        int at = length;
        for (int k = texts.size() - 1; k >= 0 && at > 0; k--) {
            byte[] text = texts.get(k);
            int n = Math.min(text.length, at);
            System.arraycopy(text, text.length - n, out, at - n, n);
            at -= n;
        }
        if (at > 0) {
            System.arraycopy(head, head.length - at, out, 0, at);
        }
        return out;
    }

    /** The dictionary of an entry following {@code history}: the end of its message text. */
    public static byte[] dictionary(List<Message> history) {
        var texts = new ArrayList<byte[]>();
        int total = 0;
        for (int i = history.size() - 1; i >= 0 && total < DICTIONARY_SIZE; i--) {
            byte[] text = text(history.subList(i, i + 1));
            texts.add(text);
            total += text.length;
        }
        Collections.reverse(texts);
        return dictionary(new byte[0], texts);
    }

    /**
     * Whether stored entry {@code entryId} of {@code agentId} is in this (compressed) form, which readers decode only
     * against the history before it; {@code false} for an entry of the earlier form, a bare checkpoint document.
     *
     * @throws CorruptCheckpointException when the layers around the bytes are not readable
     */
    public boolean isCompressedForm(String agentId, String entryId, byte[] stored, String where) {
        var location = new CheckpointLocation(agentId, entryId, where);
        return isEntry(codec.layers().unwrap(stored, location, codec.maxDocumentSize()));
    }

    /** Whether {@code bytes} (decrypted) start as an entry of this form. */
    static boolean isEntry(byte[] bytes) {
        return bytes.length >= MAGIC.length && Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
    }

    private static List<Message> messages(String agentId, String entryId, byte[] text, CheckpointLocation location) {
        if (text.length == 0 || text[text.length - 1] != ',') {
            throw corrupt(location, "the message log entry's text does not end a message");
        }
        byte[] empty = JsonCheckpointCodec.instance().encode(bare(agentId, entryId, List.of()));
        // the bare document ends with "messageHistory":[]}: the text goes between the brackets, without its last comma
        int open = empty.length - 2;
        byte[] document = Arrays.copyOf(empty, open + text.length + 1);
        System.arraycopy(text, 0, document, open, text.length - 1);
        document[document.length - 2] = ']';
        document[document.length - 1] = '}';
        return JsonCheckpointCodec.instance().decode(document, location).messageHistory();
    }

    private static AgentCheckpoint bare(String agentId, String entryId, List<Message> messages) {
        return AgentCheckpoint.builder()
                .checkpointId(entryId)
                .agentId(agentId)
                .version(0)
                .createdAt(Instant.EPOCH)
                .messageHistory(messages)
                .build();
    }

    private static CorruptCheckpointException corrupt(CheckpointLocation where, String problem) {
        return where.corrupt(problem, null);
    }
}
