package dev.agentpersistence.reliability;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads a file provider journal on its own, from the documented format (a 32-byte file header, then
 * records: magic, kind, version, id length, document length, header CRC-32C, id, document, CRC-32C),
 * so a crash test checks the bytes on disk without the provider's reader.
 *
 * @param versions  the versions of the complete checkpoint records, in file order (cuts applied)
 * @param tornBytes bytes at the end that do not form a complete record
 */
record JournalScan(List<Long> versions, long tornBytes) {
    private static final int RECORD_MAGIC = 0x41504A31;
    private static final int HEADER = 23;

    static JournalScan of(Path journal) throws IOException {
        byte[] bytes = Files.readAllBytes(journal);
        var versions = new ArrayList<Long>();
        int position = 32;
        if (bytes.length < position) {
            return new JournalScan(versions, bytes.length);
        }
        while (position + HEADER <= bytes.length) {
            ByteBuffer header = ByteBuffer.wrap(bytes, position, HEADER);
            int magic = header.getInt();
            byte kind = header.get();
            long version = header.getLong();
            int idLength = Short.toUnsignedInt(header.getShort());
            int documentLength = header.getInt();
            int headerCrc = header.getInt();
            long end = (long) position + HEADER + idLength + documentLength + 4;
            if (magic != RECORD_MAGIC || headerCrc != crc(bytes, position, HEADER - 4) || end > bytes.length
                    || ByteBuffer.wrap(bytes, (int) end - 4, 4).getInt() != crc(bytes, position + HEADER, idLength + documentLength)) {
                break;
            }
            if (kind == 1) {
                versions.add(version);
            } else {
                versions.removeIf(v -> v < version);
            }
            position = (int) end;
        }
        return new JournalScan(versions, bytes.length - position);
    }

    private static int crc(byte[] bytes, int offset, int length) {
        var crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }
}
