package dev.agentpersistence.file;

import dev.agentpersistence.file.internal.FileNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads an agent's journal independently of the provider, following the documented format: a 32-byte file header, then
 * records of a 23-byte header, the id, the document and a 4-byte CRC-32C.
 */
final class JournalFiles {
    static final int FILE_HEADER_SIZE = 32;
    static final int RECORD_HEADER_SIZE = 23;
    static final int TRAILER_SIZE = 4;

    private JournalFiles() {}

    /** A record as found in the file. */
    record Rec(long offset, int kind, long version, String checkpointId, int documentLength, boolean intact) {
        long size() {
            return RECORD_HEADER_SIZE
                    + checkpointId.getBytes(StandardCharsets.UTF_8).length
                    + documentLength
                    + TRAILER_SIZE;
        }

        /** The offset of the first byte of the document. */
        long documentOffset() {
            return offset + RECORD_HEADER_SIZE + checkpointId.getBytes(StandardCharsets.UTF_8).length;
        }

        long end() {
            return offset + size();
        }
    }

    static Path journal(Path root, String agentId) {
        return LayoutInspection.agentDirectory(root, agentId).resolve(FileNames.JOURNAL_FILE);
    }

    static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The records of the whole file, read strictly: every header must parse and every record must fit, so the last
     * record ends exactly at the end of the file.
     */
    static List<Rec> records(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (bytes.length < FILE_HEADER_SIZE || ByteBuffer.wrap(bytes).getInt() != 0x41504A46) {
            throw new AssertionError("no journal file header in " + file);
        }
        var records = new ArrayList<Rec>();
        int position = FILE_HEADER_SIZE;
        while (position < bytes.length) {
            if (bytes.length - position < RECORD_HEADER_SIZE) {
                throw new AssertionError(file + ": " + (bytes.length - position) + " stray bytes at " + position);
            }
            ByteBuffer buffer = ByteBuffer.wrap(bytes, position, RECORD_HEADER_SIZE);
            int magic = buffer.getInt();
            int kind = buffer.get();
            long version = buffer.getLong();
            int idLength = Short.toUnsignedInt(buffer.getShort());
            int documentLength = buffer.getInt();
            int headerCrc = buffer.getInt();
            if (magic != 0x41504A31 || headerCrc != crc(bytes, position, RECORD_HEADER_SIZE - 4)) {
                throw new AssertionError(file + ": no record header at " + position);
            }
            int body = idLength + documentLength;
            if (position + RECORD_HEADER_SIZE + body + TRAILER_SIZE > bytes.length) {
                throw new AssertionError(file + ": the record at " + position + " does not fit");
            }
            String id = new String(bytes, position + RECORD_HEADER_SIZE, idLength, StandardCharsets.UTF_8);
            int stored = ByteBuffer.wrap(bytes, position + RECORD_HEADER_SIZE + body, TRAILER_SIZE)
                    .getInt();
            boolean intact = stored == crc(bytes, position + RECORD_HEADER_SIZE, body);
            records.add(new Rec(position, kind, version, id, documentLength, intact));
            position += RECORD_HEADER_SIZE + body + TRAILER_SIZE;
        }
        return records;
    }

    /** The checkpoint records (kind 1) of the file. */
    static List<Rec> checkpoints(Path file) {
        return records(file).stream().filter(rec -> rec.kind() == 1).toList();
    }

    /** Inverts every bit of the byte at {@code offset}. */
    static void flipByte(Path file, long offset) {
        try (var channel = java.nio.channels.FileChannel.open(
                file, java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, offset);
            one.flip();
            byte flipped = (byte) ~one.get();
            channel.write(ByteBuffer.wrap(new byte[] {flipped}), offset);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int crc(byte[] bytes, int offset, int length) {
        var crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }
}
