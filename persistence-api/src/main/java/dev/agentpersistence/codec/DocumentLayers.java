package dev.agentpersistence.codec;

import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.EncryptionKeyException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.zip.CRC32C;
import java.util.zip.Deflater;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The byte layers around a stored document: compression (LZ4 or deflate), an integrity checksum (CRC32C) and
 * AES-256-GCM encryption. Works on any bytes ({@code byte[] -> byte[]}), so it wraps checkpoint documents
 * ({@link LayeredCheckpointCodec}) and any other stored blob the same way.
 *
 * <p><b>Writing</b> follows the configuration: {@code compress(encoded)}, then {@code checksum(...)}, then
 * {@code encrypt(...)} with the current key. <b>Reading</b> follows the stored bytes, whatever is configured: an
 * encrypted document is decrypted with the key its header names, a checksummed one is verified, a compressed one is
 * inflated, and anything else (the plain JSON documents written before these layers existed) is passed through
 * unchanged. So layers can be turned on for existing data, and documents written with and without them are read side by
 * side.
 *
 * <p>Compression only happens when it pays: documents shorter than {@link #compressionMinSize()} and documents whose
 * compressed form is not smaller are stored uncompressed. Compressing before encrypting is what makes it work at all
 * (ciphertext does not compress); the stored size then tells an observer roughly how compressible a document is, as it
 * already told its length.
 *
 * <p>Formats (each starts with a byte no JSON document, and no UTF-8 text, starts with):
 *
 * <pre>
 * compressed: A9 'A' 'P' 'Z' | 01 (deflate) | uncompressed length (4 bytes, big-endian)
 *             | zlib stream (RFC 1950: deflate data, Adler-32 of the uncompressed bytes)
 *         or: A9 'A' 'P' 'Z' | 02 (LZ4) | uncompressed length (4 bytes, big-endian)
 *             | CRC32C of the uncompressed bytes (4 bytes) | one LZ4 block
 *         or: A9 'A' 'P' 'Z' | 03 (deflate against the record dictionary) | uncompressed length (4 bytes, big-endian)
 *             | raw deflate data (RFC 1951) with the library's fixed dictionary of record fields
 * checksum:   "#crc32c:" 8 lower-case hex digits "\n" payload
 * encrypted:  A9 'A' 'P' 'E' | 01 (layer version) | key id length (1 byte) | key id (ASCII) | nonce (12 bytes)
 *             | AES-256-GCM ciphertext with 128-bit tag; the header is the associated data
 * </pre>
 *
 * Inflating is bounded and strict: a document declaring more than the limit (the codec's maximum checkpoint size, 64
 * MiB by default) or more than its compressed bytes can hold, producing more or fewer bytes than it declares, or with
 * bytes after the stream is a {@link CorruptCheckpointException}; nothing larger than the declared length is ever
 * allocated. Compressed output depends only on the input, the settings and the compression library (zlib of the
 * runtime, or lz4-java's native or Java LZ4), so equal documents give equal bytes with a given library; another library
 * version may compress differently, and every version reads what any other wrote.
 *
 * <p>The cipher key and the nonce key are derived from the configured key with HMAC-SHA256; the nonce is the HMAC of
 * the plaintext, so equal documents encrypt to equal bytes (the {@link CheckpointCodec} contract) and different
 * documents never share a nonce in practice. An attacker who can read the store learns which stored documents are
 * equal, and their sizes; nothing else.
 *
 * <p>Immutable and thread-safe.
 */
public final class DocumentLayers {
    /** The first bytes of a checksummed document. */
    static final byte[] CHECKSUM_PREFIX = "#crc32c:".getBytes(StandardCharsets.US_ASCII);
    /** The first bytes of an encrypted document. */
    static final byte[] ENCRYPTED_MAGIC = {(byte) 0xA9, 'A', 'P', 'E'};
    /** The encrypted layer's format version. */
    static final int ENCRYPTION_VERSION = 1;
    /** The compression algorithm {@link Builder} uses once compression is on, unless told otherwise. */
    public static final CompressionAlgorithm DEFAULT_COMPRESSION_ALGORITHM = CompressionAlgorithm.LZ4;
    /** The deflate level {@link Builder} uses unless told otherwise. */
    public static final int DEFAULT_COMPRESSION_LEVEL = 1;
    /**
     * The smallest document {@link Builder} compresses unless told otherwise, in bytes. Stores pack records and message
     * log entries of a few hundred bytes to a few KiB into shared pages and journals, so compression pays from here;
     * below it LZ4 rarely saves more than its frame.
     */
    public static final long DEFAULT_COMPRESSION_MIN_SIZE = 512;

    private static final int CHECKSUM_HEADER = CHECKSUM_PREFIX.length + 8 + 1;
    private static final int NONCE_LENGTH = 12;
    private static final int TAG_BITS = 128;
    private static final byte[] CIPHER_KEY_LABEL =
            "agent-persistence aes-256-gcm cipher key v1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NONCE_KEY_LABEL =
            "agent-persistence aes-256-gcm nonce key v1".getBytes(StandardCharsets.US_ASCII);
    private static final DocumentLayers NONE = new DocumentLayers(new Builder());

    private final boolean compress;
    private final CompressionAlgorithm compressionAlgorithm;
    private final int compressionLevel;
    private final long compressionMinSize;
    private final boolean checksum;
    private final EncryptionKeys keys;
    private final boolean requireEncryption;
    private final Map<String, DerivedKey> derived;

    private DocumentLayers(Builder builder) {
        this.compress = builder.compress;
        this.compressionAlgorithm = builder.compressionAlgorithm;
        this.compressionLevel = builder.compressionLevel;
        this.compressionMinSize = builder.compressionMinSize;
        this.checksum = builder.checksum;
        this.keys = builder.keys;
        this.requireEncryption = builder.requireEncryption;
        var map = new LinkedHashMap<String, DerivedKey>();
        if (keys != null) {
            for (String id : keys.keyIds()) {
                byte[] key = keys.key(id).orElseThrow();
                try {
                    map.put(id, DerivedKey.of(key));
                } finally {
                    Arrays.fill(key, (byte) 0);
                }
            }
        }
        this.derived = Map.copyOf(map);
    }

    /**
     * Writes documents unchanged; still reads (inflates, verifies) compressed and checksummed ones, and names the key
     * of encrypted ones.
     */
    public static DocumentLayers none() {
        return NONE;
    }

    /** A builder; nothing is added on write until configured. */
    public static Builder custom() {
        return new Builder();
    }

    /** Whether written documents are compressed (when that makes them smaller). */
    public boolean compresses() {
        return compress;
    }

    /** The algorithm written documents are compressed with, when {@link #compresses()}. */
    public CompressionAlgorithm compressionAlgorithm() {
        return compressionAlgorithm;
    }

    /** The deflate level, 1 (fastest) to 9 (smallest); LZ4 has none. */
    public int compressionLevel() {
        return compressionLevel;
    }

    /** Documents shorter than this many bytes are not compressed. */
    public long compressionMinSize() {
        return compressionMinSize;
    }

    /** Whether written documents get a checksum. */
    public boolean checksum() {
        return checksum;
    }

    /** Whether written documents are encrypted. */
    public boolean encrypts() {
        return keys != null;
    }

    /** Whether reading refuses documents that are not encrypted. */
    public boolean requiresEncryption() {
        return requireEncryption;
    }

    /** The key ring, when encryption is on. */
    public java.util.Optional<EncryptionKeys> keys() {
        return java.util.Optional.ofNullable(keys);
    }

    /** Whether written documents are stored exactly as encoded. */
    public boolean writesPlain() {
        return !compress && !checksum && keys == null;
    }

    /** The stored form of {@code document}: compressed (when it pays), checksummed and/or encrypted as configured. */
    public byte[] wrap(byte[] document) {
        Objects.requireNonNull(document, "document");
        byte[] result = document;
        if (compress && document.length >= compressionMinSize) {
            byte[] compressed = CompressionLayer.compress(document, compressionAlgorithm, compressionLevel);
            if (compressed != null) {
                result = compressed;
            }
        }
        return seal(result);
    }

    /**
     * As {@link #wrap}, but a document under {@link #compressionMinSize()} is compressed too (when compression is on
     * and it pays), against a dictionary of the fields checkpoint records share: for the short records of checkpoints
     * whose history is stored elsewhere.
     */
    byte[] wrapRecord(byte[] document) {
        Objects.requireNonNull(document, "document");
        if (compress && document.length < compressionMinSize) {
            byte[] compressed = RecordDictionary.compress(document);
            if (compressed != null) {
                return seal(compressed);
            }
        }
        return wrap(document);
    }

    /** The checksum and encryption layers, as configured, around a payload (compressed or not). */
    private byte[] seal(byte[] payload) {
        byte[] result = payload;
        if (checksum) {
            result = addChecksum(result);
        }
        if (keys != null) {
            result = encrypt(result, keys.currentKeyId());
        }
        return result;
    }

    /**
     * {@code payload} encrypted with the current key when encryption is on, else unchanged: for stored forms that
     * compress themselves and whose content a hash names (message log entries), so that neither compression nor a
     * checksum is added twice.
     */
    byte[] encryptOnly(byte[] payload) {
        return keys == null ? payload : encrypt(payload, keys.currentKeyId());
    }

    /**
     * The document inside {@code stored}: decrypted, verified and inflated when it carries those layers, unchanged when
     * it carries none. A compressed document may declare up to {@link LayeredCheckpointCodec#DEFAULT_MAX_DOCUMENT_SIZE}
     * bytes.
     *
     * @throws EncryptionKeyException when the document's key id is not configured or its key does not open it
     * @throws CorruptCheckpointException when a layer is truncated or damaged or its checksum does not match, or an
     *     unencrypted document is read while encryption is required
     */
    public byte[] unwrap(byte[] stored, CheckpointLocation where) {
        return unwrap(stored, where, LayeredCheckpointCodec.DEFAULT_MAX_DOCUMENT_SIZE);
    }

    /**
     * As {@link #unwrap(byte[], CheckpointLocation)}, refusing a compressed document that declares more than
     * {@code maxDocumentSize} bytes uncompressed (the codec's maximum checkpoint size).
     */
    public byte[] unwrap(byte[] stored, CheckpointLocation where, long maxDocumentSize) {
        Objects.requireNonNull(where, "where");
        if (stored == null) {
            throw where.corrupt("the stored document is missing", null);
        }
        byte[] result = stored;
        if (startsWith(result, ENCRYPTED_MAGIC)) {
            result = decrypt(result, where);
        } else if (requireEncryption) {
            throw where.corrupt("the document is not encrypted, but encryption is required", null);
        }
        int start = 0;
        if (startsWith(result, CHECKSUM_PREFIX)) {
            verifyChecksum(result, where);
            start = CHECKSUM_HEADER;
        }
        if (CompressionLayer.isCompressed(result, start)) {
            boolean bounded = maxDocumentSize < CompressionLayer.MAX_LENGTH;
            return CompressionLayer.decompress(
                    result,
                    start,
                    start > 0,
                    where,
                    bounded ? maxDocumentSize : CompressionLayer.MAX_LENGTH,
                    bounded ? "the maximum checkpoint size" : "the largest document this library reads");
        }
        return start == 0 ? result : Arrays.copyOfRange(result, start, result.length);
    }

    /** The key id an encrypted stored document names, or {@code null} for one that is not encrypted. */
    public static String keyIdOf(byte[] stored) {
        if (stored == null || !startsWith(stored, ENCRYPTED_MAGIC) || stored.length < ENCRYPTED_MAGIC.length + 2) {
            return null;
        }
        int length = stored[ENCRYPTED_MAGIC.length + 1] & 0xFF;
        int start = ENCRYPTED_MAGIC.length + 2;
        if (stored.length < start + length) {
            return null;
        }
        return new String(stored, start, length, StandardCharsets.US_ASCII);
    }

    @Override
    public String toString() {
        String algorithm = compressionAlgorithm == CompressionAlgorithm.DEFLATE
                ? "deflate(level " + compressionLevel + ", "
                : "lz4(";
        return "DocumentLayers[compression=" + (compress ? algorithm + "from " + compressionMinSize + " bytes)" : "off")
                + ", checksum=" + checksum + ", encryption=" + (keys == null ? "off" : keys) + ", requireEncryption="
                + requireEncryption + "]";
    }

    private static byte[] addChecksum(byte[] payload) {
        var crc = new CRC32C();
        crc.update(payload);
        byte[] out = new byte[CHECKSUM_HEADER + payload.length];
        System.arraycopy(CHECKSUM_PREFIX, 0, out, 0, CHECKSUM_PREFIX.length);
        byte[] hex = HexFormat.of().toHexDigits((int) crc.getValue()).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(hex, 0, out, CHECKSUM_PREFIX.length, hex.length);
        out[CHECKSUM_HEADER - 1] = '\n';
        System.arraycopy(payload, 0, out, CHECKSUM_HEADER, payload.length);
        return out;
    }

    /** Checks the checksum header of {@code stored} against the bytes after it. */
    private static void verifyChecksum(byte[] stored, CheckpointLocation where) {
        if (stored.length < CHECKSUM_HEADER || stored[CHECKSUM_HEADER - 1] != '\n') {
            throw where.corrupt("the checksum header is truncated or malformed", null);
        }
        String hex = new String(stored, CHECKSUM_PREFIX.length, 8, StandardCharsets.US_ASCII);
        long expected;
        try {
            expected = HexFormat.fromHexDigitsToLong(hex);
        } catch (IllegalArgumentException e) {
            throw where.corrupt("the checksum header is malformed", e);
        }
        var crc = new CRC32C();
        crc.update(stored, CHECKSUM_HEADER, stored.length - CHECKSUM_HEADER);
        if (crc.getValue() != expected) {
            throw where.corrupt(
                    "checksum mismatch: stored crc32c " + hex + ", computed " + String.format("%08x", crc.getValue())
                            + " (the document was altered or truncated)",
                    null);
        }
    }

    private byte[] encrypt(byte[] plain, String keyId) {
        DerivedKey key = derived.get(keyId);
        byte[] id = keyId.getBytes(StandardCharsets.US_ASCII);
        byte[] nonce = Arrays.copyOf(key.nonceFor(plain), NONCE_LENGTH);
        var header = ByteBuffer.allocate(ENCRYPTED_MAGIC.length + 2 + id.length + NONCE_LENGTH);
        header.put(ENCRYPTED_MAGIC)
                .put((byte) ENCRYPTION_VERSION)
                .put((byte) id.length)
                .put(id)
                .put(nonce);
        byte[] head = header.array();
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key.cipherKey(), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(head);
            byte[] sealed = cipher.doFinal(plain);
            byte[] out = Arrays.copyOf(head, head.length + sealed.length);
            System.arraycopy(sealed, 0, out, head.length, sealed.length);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-256-GCM is not available in this JVM", e);
        }
    }

    private byte[] decrypt(byte[] stored, CheckpointLocation where) {
        int fixed = ENCRYPTED_MAGIC.length + 2;
        if (stored.length < fixed) {
            throw where.corrupt("the encrypted document is truncated (no header)", null);
        }
        int version = stored[ENCRYPTED_MAGIC.length] & 0xFF;
        if (version != ENCRYPTION_VERSION) {
            throw where.corrupt(
                    "encryption layer version " + version + " is not one this library reads (" + ENCRYPTION_VERSION
                            + ")",
                    null);
        }
        int idLength = stored[ENCRYPTED_MAGIC.length + 1] & 0xFF;
        int headerLength = fixed + idLength + NONCE_LENGTH;
        if (idLength == 0 || stored.length < headerLength + TAG_BITS / 8) {
            throw where.corrupt("the encrypted document is truncated", null);
        }
        String keyId = new String(stored, fixed, idLength, StandardCharsets.US_ASCII);
        if (!EncryptionKeys.isValidKeyId(keyId)) {
            throw where.corrupt("the encrypted document's key id is malformed", null);
        }
        DerivedKey key = derived.get(keyId);
        if (key == null) {
            String known = keys == null
                    ? "no encryption keys are configured (agent.persistence.encryption.keys)"
                    : "the configured key ids are " + keys.keyIds();
            throw new EncryptionKeyException(
                    where.agentId(),
                    where.checkpointId(),
                    where.description(),
                    keyId,
                    "the document is encrypted with key '" + keyId + "', which is not configured; " + known,
                    null);
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(
                    Cipher.DECRYPT_MODE,
                    key.cipherKey(),
                    new GCMParameterSpec(TAG_BITS, stored, headerLength - NONCE_LENGTH, NONCE_LENGTH));
            cipher.updateAAD(stored, 0, headerLength);
            return cipher.doFinal(stored, headerLength, stored.length - headerLength);
        } catch (AEADBadTagException e) {
            throw new EncryptionKeyException(
                    where.agentId(),
                    where.checkpointId(),
                    where.description(),
                    keyId,
                    "the document could not be decrypted with key '" + keyId
                            + "': the configured key of that id is wrong, or the data was altered",
                    e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-256-GCM is not available in this JVM", e);
        }
    }

    private static boolean startsWith(byte[] bytes, byte[] prefix) {
        return bytes.length >= prefix.length && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
    }

    /** The cipher key and nonce key derived from one configured key. */
    private record DerivedKey(SecretKeySpec cipherKey, SecretKeySpec nonceKey) {
        static DerivedKey of(byte[] master) {
            return new DerivedKey(
                    new SecretKeySpec(HmacSha256.of(master, CIPHER_KEY_LABEL), "AES"),
                    HmacSha256.key(HmacSha256.of(master, NONCE_KEY_LABEL)));
        }

        byte[] nonceFor(byte[] plain) {
            return HmacSha256.of(nonceKey, plain);
        }

        @Override
        public String toString() {
            return "DerivedKey[****]";
        }
    }

    /** Builds {@link DocumentLayers}; every method validates its argument. */
    public static final class Builder {
        private boolean compress;
        private CompressionAlgorithm compressionAlgorithm = DEFAULT_COMPRESSION_ALGORITHM;
        private int compressionLevel = DEFAULT_COMPRESSION_LEVEL;
        private long compressionMinSize = DEFAULT_COMPRESSION_MIN_SIZE;
        private boolean checksum;
        private EncryptionKeys keys;
        private boolean requireEncryption;

        private Builder() {}

        /**
         * Whether written documents are compressed (default {@code false}), with
         * {@link #compressionAlgorithm(CompressionAlgorithm)}; a document is stored uncompressed when it is shorter
         * than {@link #compressionMinSize(long)} or does not get smaller.
         */
        public Builder compression(boolean compress) {
            this.compress = compress;
            return this;
        }

        /** The algorithm of {@link #compression(boolean)}; default {@link CompressionAlgorithm#LZ4}. */
        public Builder compressionAlgorithm(CompressionAlgorithm algorithm) {
            this.compressionAlgorithm = Objects.requireNonNull(algorithm, "algorithm");
            return this;
        }

        /**
         * The deflate level, 1 (fastest) to 9 (smallest); default {@value DocumentLayers#DEFAULT_COMPRESSION_LEVEL} (on
         * conversation-like JSON, level 6 stores about a fifth fewer bytes of a 250 KiB document but takes about five
         * times as long to compress it; reading costs the same).
         */
        public Builder compressionLevel(int level) {
            if (level < Deflater.BEST_SPEED || level > Deflater.BEST_COMPRESSION) {
                throw new IllegalArgumentException("compressionLevel must be 1 to 9 but was " + level);
            }
            this.compressionLevel = level;
            return this;
        }

        /**
         * Documents shorter than this many bytes ({@code >= 0}) are not compressed; default
         * {@value DocumentLayers#DEFAULT_COMPRESSION_MIN_SIZE}.
         */
        public Builder compressionMinSize(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("compressionMinSize must not be negative but was " + bytes);
            }
            this.compressionMinSize = bytes;
            return this;
        }

        /** Whether written documents get a CRC32C checksum (default {@code false}). */
        public Builder checksum(boolean checksum) {
            this.checksum = checksum;
            return this;
        }

        /** Encrypts written documents with the ring's current key and reads with any of its keys. */
        public Builder encryption(EncryptionKeys keys) {
            this.keys = Objects.requireNonNull(keys, "keys");
            return this;
        }

        /** Whether reading refuses unencrypted documents (default {@code false}: plaintext stays readable). */
        public Builder requireEncryption(boolean requireEncryption) {
            this.requireEncryption = requireEncryption;
            return this;
        }

        /**
         * The layers.
         *
         * @throws IllegalStateException when encryption is required but no keys are given
         */
        public DocumentLayers build() {
            if (requireEncryption && keys == null) {
                throw new IllegalStateException("requireEncryption needs encryption keys");
            }
            return new DocumentLayers(this);
        }
    }
}
