package dev.agentpersistence.codec;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.ProviderConfig;
import java.util.List;
import java.util.Objects;

/**
 * The settings of the stored form, each declared once below: format version, compression, checksums, encryption and the
 * maximum checkpoint size. Every provider writes with {@link #codec(ProviderConfig)}; documents written with other
 * settings (or before any, as plain JSON) stay readable, see {@link DocumentLayers}.
 */
public final class CodecSettings {
    /** The version of the stored form new documents are written in. */
    public static final Setting<Integer> FORMAT_VERSION = Setting.integer(
            "agent.persistence.format-version",
            JsonCheckpointCodec.FORMAT_VERSION,
            JsonCheckpointCodec.OLDEST_WRITABLE_FORMAT,
            JsonCheckpointCodec.FORMAT_VERSION,
            "Stored-form version of new documents; every version is read."
                    + " 1 only during a rolling upgrade from a release before message ids: stores no message ids"
                    + " and refuses content parts.");
    /** Compression of new documents. */
    public static final Setting<String> COMPRESSION = Setting.choice(
            "agent.persistence.compression",
            "lz4",
            List.of("lz4", "deflate", "none"),
            "Compression of new documents (before the checksum and encryption):"
                    + " lz4 is the fastest, deflate the smallest; every kind is read whatever is set. deflate during a"
                    + " rolling upgrade from a build that reads deflate only.");
    /** Documents shorter than this are not compressed. */
    public static final Setting<Long> COMPRESSION_MIN_SIZE = Setting.size(
            "agent.persistence.compression.min-size",
            DocumentLayers.DEFAULT_COMPRESSION_MIN_SIZE,
            0,
            "Documents shorter than this are stored uncompressed.");
    /** The deflate level. */
    public static final Setting<Integer> COMPRESSION_LEVEL = Setting.integer(
            "agent.persistence.compression.level",
            DocumentLayers.DEFAULT_COMPRESSION_LEVEL,
            1,
            9,
            "Deflate level: 1 fastest, 9 smallest.");
    /** A CRC32C checksum in every new document. */
    public static final Setting<Boolean> CHECKSUM = Setting.bool(
            "agent.persistence.checksum", true, "A CRC32C checksum in every new document, checked on every read.");
    /** The encryption keys. */
    public static final Setting<String> ENCRYPTION_KEYS = Setting.text(
                    "agent.persistence.encryption.keys",
                    null,
                    "AES-256 keys as id:base64key,...; set to encrypt new documents and to read encrypted ones.")
            .secret();
    /** The key id new documents are encrypted with. */
    public static final Setting<String> ENCRYPTION_CURRENT_KEY = Setting.text(
            "agent.persistence.encryption.current-key",
            null,
            "The key id new documents are encrypted with (optional with one key).");
    /** Whether unencrypted documents are refused. */
    public static final Setting<Boolean> ENCRYPTION_REQUIRED = Setting.bool(
            "agent.persistence.encryption.required", false, "Refuse to read documents that are not encrypted.");
    /** The largest checkpoint. */
    public static final Setting<Long> MAX_CHECKPOINT_SIZE = Setting.size(
            "agent.persistence.max-checkpoint-size",
            LayeredCheckpointCodec.DEFAULT_MAX_DOCUMENT_SIZE,
            1,
            "Largest checkpoint as encoded and as stored; no read allocates more for one document.");
    /** Every setting of the stored form, in documentation order. */
    public static final List<Setting<?>> SETTINGS = List.of(
            FORMAT_VERSION,
            COMPRESSION,
            COMPRESSION_MIN_SIZE,
            COMPRESSION_LEVEL,
            CHECKSUM,
            ENCRYPTION_KEYS,
            ENCRYPTION_CURRENT_KEY,
            ENCRYPTION_REQUIRED,
            MAX_CHECKPOINT_SIZE);

    private CodecSettings() {}

    /**
     * The codec the settings describe: JSON inside the configured layers.
     *
     * @throws PersistenceException naming the setting that is malformed (never a key's value)
     */
    public static LayeredCheckpointCodec codec(ProviderConfig config) {
        Objects.requireNonNull(config, "config");
        return LayeredCheckpointCodec.custom()
                .inner(JsonCheckpointCodec.writingFormat(FORMAT_VERSION.read(config)))
                .layers(layers(config))
                .maxDocumentSize(MAX_CHECKPOINT_SIZE.read(config))
                .build();
    }

    /** The layers the settings describe (for blobs other than checkpoints). */
    public static DocumentLayers layers(ProviderConfig config) {
        Objects.requireNonNull(config, "config");
        var builder = DocumentLayers.custom()
                .checksum(CHECKSUM.read(config))
                .compression(!COMPRESSION.read(config).equals("none"))
                .compressionAlgorithm(
                        COMPRESSION.read(config).equals("deflate")
                                ? CompressionAlgorithm.DEFLATE
                                : CompressionAlgorithm.LZ4)
                .compressionMinSize(COMPRESSION_MIN_SIZE.read(config))
                .compressionLevel(COMPRESSION_LEVEL.read(config));
        var keys = ENCRYPTION_KEYS.find(config);
        var current = ENCRYPTION_CURRENT_KEY.find(config);
        boolean required = ENCRYPTION_REQUIRED.read(config);
        if (keys.isPresent()) {
            builder.encryption(parseKeys(keys.get(), current.orElse(null)));
        } else if (current.isPresent() || required) {
            throw new PersistenceException((current.isPresent() ? ENCRYPTION_CURRENT_KEY : ENCRYPTION_REQUIRED).key()
                    + " is set but " + ENCRYPTION_KEYS.key() + " (environment " + ENCRYPTION_KEYS.environmentName()
                    + ") is not");
        }
        return builder.requireEncryption(required).build();
    }

    private static EncryptionKeys parseKeys(String keys, String current) {
        try {
            return EncryptionKeys.parse(keys, current);
        } catch (PersistenceException e) {
            // the message holds no key material (EncryptionKeys.parse promises it); name the setting
            throw new PersistenceException("Setting '" + ENCRYPTION_KEYS.key() + "' (environment "
                    + ENCRYPTION_KEYS.environmentName() + "): " + e.getMessage());
        }
    }
}
