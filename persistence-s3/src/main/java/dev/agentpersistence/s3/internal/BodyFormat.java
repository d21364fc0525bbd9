package dev.agentpersistence.s3.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * How a codec document is stored in a body: as it is, or gzip-compressed. The form is recorded in the object's user
 * metadata {@value #ENCODING} ({@code identity} or {@code gzip}), so readers handle both whatever the current setting.
 */
public final class BodyFormat {
    /** User metadata naming the body's encoding. */
    public static final String ENCODING = "checkpoint-encoding";

    private static final String GZIP = "gzip";
    private static final String IDENTITY = "identity";

    private final boolean gzip;

    public BodyFormat(boolean gzip) {
        this.gzip = gzip;
    }

    /** The user metadata to store with a body written by {@link #wrap}. */
    public Map<String, String> metadata() {
        return Map.of(ENCODING, gzip ? GZIP : IDENTITY);
    }

    /** The stored form of {@code document}. */
    public byte[] wrap(byte[] document) {
        if (!gzip) {
            return document;
        }
        var out = new ByteArrayOutputStream(Math.max(64, document.length / 4));
        try (var zip = new GZIPOutputStream(out, 64 * 1024)) {
            zip.write(document);
        } catch (IOException e) {
            throw new UncheckedIOException("gzip in memory failed", e);
        }
        return out.toByteArray();
    }

    /**
     * The document inside a stored body, never longer than {@code maxSize}.
     *
     * @throws IOException when the body claims to be gzip but is not, unpacks to more than {@code maxSize} bytes (found
     *     before allocating more), or the encoding is unknown
     */
    public static byte[] unwrap(byte[] stored, Map<String, String> metadata, long maxSize) throws IOException {
        String encoding = metadata.getOrDefault(ENCODING, IDENTITY);
        if (encoding.equalsIgnoreCase(IDENTITY)) {
            return stored;
        }
        if (encoding.equalsIgnoreCase(GZIP)) {
            try (var in = new GZIPInputStream(new ByteArrayInputStream(stored), 64 * 1024)) {
                var document = new ByteArrayOutputStream(Math.max(64, stored.length * 4));
                byte[] buffer = new byte[64 * 1024];
                for (int n; (n = in.read(buffer)) != -1; ) {
                    if (document.size() + (long) n > maxSize) {
                        throw new IOException("the gzip body unpacks to more than the maximum checkpoint size of "
                                + maxSize + " bytes");
                    }
                    document.write(buffer, 0, n);
                }
                return document.toByteArray();
            }
        }
        throw new IOException("unknown body encoding '" + encoding + "' in user metadata " + ENCODING);
    }
}
