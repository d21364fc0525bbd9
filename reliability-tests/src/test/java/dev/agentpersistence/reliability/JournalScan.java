package dev.agentpersistence.reliability;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;

/**
 * Reads and rewrites a file provider journal on its own, from the documented format (a 32-byte file header: magic,
 * format, generation, reserved, CRC-32C; then records: magic, kind, version, id length, document length, header
 * CRC-32C, id, document, CRC-32C), so tests check and damage the bytes on disk without the provider's code.
 *
 * @param records the complete records, in file order
 * @param tornBytes bytes at the end that do not form a complete record
 */
record JournalScan(List<Record> records, long tornBytes) {
    private static final int FILE_MAGIC = 0x41504A46;
    private static final int RECORD_MAGIC = 0x41504A31;
    private static final int FILE_HEADER = 32;
    private static final int HEADER = 23;

    /** One record: kind 1 is a checkpoint, kind 2 a cut deleting the versions below {@code version}. */
    record Record(byte kind, long version, String checkpointId, byte[] document) {}

    static JournalScan of(Path journal) throws IOException {
        byte[] bytes = Files.readAllBytes(journal);
        var records = new ArrayList<Record>();
        int position = FILE_HEADER;
        if (bytes.length < position) {
            return new JournalScan(records, bytes.length);
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
            if (magic != RECORD_MAGIC
                    || headerCrc != crc(bytes, position, HEADER - 4)
                    || end > bytes.length
                    || ByteBuffer.wrap(bytes, (int) end - 4, 4).getInt()
                            != crc(bytes, position + HEADER, idLength + documentLength)) {
                break;
            }
            String id = new String(bytes, position + HEADER, idLength, StandardCharsets.UTF_8);
            byte[] document = java.util.Arrays.copyOfRange(
                    bytes, position + HEADER + idLength, position + HEADER + idLength + documentLength);
            records.add(new Record(kind, version, id, document));
            position = (int) end;
        }
        return new JournalScan(records, bytes.length - position);
    }

    /** The versions of the checkpoints the records hold, cuts applied, in file order. */
    List<Long> versions() {
        var versions = new ArrayList<Long>();
        for (Record record : records) {
            if (record.kind() == 1) {
                versions.add(record.version());
            } else {
                versions.removeIf(v -> v < record.version());
            }
        }
        return versions;
    }

    /** The document of the checkpoint record of {@code version}. */
    byte[] document(long version) {
        return records.stream()
                .filter(r -> r.kind() == 1 && r.version() == version)
                .reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no record of version " + version))
                .document();
    }

    /**
     * Writes the journal anew with {@code document} in the record of {@code version} (checksums recomputed) and a new
     * generation, then renames it over {@code journal}: how a journal replaced by hand looks to a provider.
     */
    void rewrite(Path journal, long version, byte[] document) throws IOException {
        var out = new java.io.ByteArrayOutputStream();
        ByteBuffer fileHeader = ByteBuffer.allocate(FILE_HEADER);
        var random = new Random();
        fileHeader
                .putInt(FILE_MAGIC)
                .putInt(1)
                .putLong(random.nextLong())
                .putLong(random.nextLong())
                .putInt(0);
        fileHeader.putInt(crc(fileHeader.array(), 0, FILE_HEADER - 4));
        out.write(fileHeader.array());
        for (Record record : records) {
            byte[] id = record.checkpointId().getBytes(StandardCharsets.UTF_8);
            byte[] body = record.kind() == 1 && record.version() == version ? document : record.document();
            ByteBuffer buffer = ByteBuffer.allocate(HEADER + id.length + body.length + 4);
            buffer.putInt(RECORD_MAGIC)
                    .put(record.kind())
                    .putLong(record.version())
                    .putShort((short) id.length)
                    .putInt(body.length);
            buffer.putInt(crc(buffer.array(), 0, HEADER - 4));
            buffer.put(id).put(body);
            buffer.putInt(crc(buffer.array(), HEADER, id.length + body.length));
            out.write(buffer.array());
        }
        Path temp = journal.resolveSibling(".rewrite-" + random.nextInt(Integer.MAX_VALUE));
        Files.write(temp, out.toByteArray());
        Files.move(temp, journal, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static int crc(byte[] bytes, int offset, int length) {
        var crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }
}
