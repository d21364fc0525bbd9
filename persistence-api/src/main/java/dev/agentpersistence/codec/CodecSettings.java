package dev.agentpersistence.codec;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.Setting;
import java.util.List;
import java.util.Objects;

/**
 * The settings of the stored form, each declared once ({@link Setting}); every provider writes with
 * {@link #codec(ProviderConfig)}. Keys (environment form: upper case, dots and dashes as underscores):
 * <ul>
 *   <li>{@value #COMPRESSION} — {@code deflate} (default) or {@code none}: documents are deflate-compressed
 *       before the checksum and encryption, when that makes them smaller;</li>
 *   <li>{@value #COMPRESSION_MIN_SIZE} — documents shorter than this are not compressed; a size as for
 *       {@value #MAX_CHECKPOINT_SIZE} ({@code 0} compresses all), default {@code 4KiB};</li>
 *   <li>{@value #COMPRESSION_LEVEL} — deflate level {@code 1} (fastest, default) to {@code 9} (smallest);</li>
 *   <li>{@value #CHECKSUM} — {@code true}/{@code false}, default {@code true}: a CRC32C checked on every read;</li>
 *   <li>{@value #ENCRYPTION_KEYS} — {@code id:base64key,...} (32-byte AES keys); set to encrypt with AES-256-GCM;</li>
 *   <li>{@value #ENCRYPTION_CURRENT_KEY} — the key id new documents are encrypted with (optional with one key);</li>
 *   <li>{@value #ENCRYPTION_REQUIRED} — {@code true} refuses to read unencrypted documents (default {@code false});</li>
 *   <li>{@value #MAX_CHECKPOINT_SIZE} — largest document, as encoded (JSON, before compression) and as
 *       stored: bytes, or with a unit ({@code 512KiB}, {@code 16MiB}, {@code 1GiB}; {@code KB}/{@code MB}/{@code GB}
 *       are powers of 1000); default {@code 64MiB}. Reads never allocate more for one document. See
 *       {@link LayeredCheckpointCodec}.</li>
 * </ul>
 * Documents written before (plain JSON) or with other settings stay readable; see {@link DocumentLayers}.
 */
public final class CodecSettings {
    /** Compression of new documents. */
    public static final Setting<String> COMPRESSION_MODE = Setting.choice("agent.persistence.compression", "deflate",
            List.of("deflate", "none"), "Compression of new documents (before the checksum and encryption).");
    /** Documents shorter than this are not compressed. */
    public static final Setting<Long> COMPRESSION_THRESHOLD = Setting.size("agent.persistence.compression.min-size",
            DocumentLayers.DEFAULT_COMPRESSION_MIN_SIZE, 0, "Documents shorter than this are stored uncompressed.");
    /** The deflate level. */
    public static final Setting<Integer> COMPRESSION_DEFLATE_LEVEL = Setting.integer("agent.persistence.compression.level",
            DocumentLayers.DEFAULT_COMPRESSION_LEVEL, 1, 9, "Deflate level: 1 fastest, 9 smallest.");
    /** A CRC32C checksum in every new document. */
    public static final Setting<Boolean> CHECKSUM_ENABLED = Setting.bool("agent.persistence.checksum", true,
            "A CRC32C checksum in every new document, checked on every read.");
    /** The encryption keys. */
    public static final Setting<String> ENCRYPTION_KEY_LIST = Setting.text("agent.persistence.encryption.keys", null,
            "AES-256 keys as id:base64key,...; set to encrypt new documents and to read encrypted ones.").secret();
    /** The key id new documents are encrypted with. */
    public static final Setting<String> ENCRYPTION_CURRENT_KEY_ID = Setting.text("agent.persistence.encryption.current-key",
            null, "The key id new documents are encrypted with (optional with one key).");
    /** Whether unencrypted documents are refused. */
    public static final Setting<Boolean> ENCRYPTION_REQUIRED_ENABLED = Setting.bool("agent.persistence.encryption.required",
            false, "Refuse to read documents that are not encrypted.");
    /** The largest checkpoint. */
    public static final Setting<Long> MAX_CHECKPOINT_BYTES = Setting.size("agent.persistence.max-checkpoint-size",
            LayeredCheckpointCodec.DEFAULT_MAX_DOCUMENT_SIZE, 1,
            "Largest checkpoint as encoded and as stored; no read allocates more for one document.");
    /** Every setting of the stored form, in documentation order. */
    public static final List<Setting<?>> SETTINGS = List.of(COMPRESSION_MODE, COMPRESSION_THRESHOLD,
            COMPRESSION_DEFLATE_LEVEL, CHECKSUM_ENABLED, ENCRYPTION_KEY_LIST, ENCRYPTION_CURRENT_KEY_ID,
            ENCRYPTION_REQUIRED_ENABLED, MAX_CHECKPOINT_BYTES);

    /** The key of {@link #COMPRESSION_MODE}. */
    public static final String COMPRESSION = COMPRESSION_MODE.key();
    /** The key of {@link #COMPRESSION_THRESHOLD}. */
    public static final String COMPRESSION_MIN_SIZE = COMPRESSION_THRESHOLD.key();
    /** The key of {@link #COMPRESSION_DEFLATE_LEVEL}. */
    public static final String COMPRESSION_LEVEL = COMPRESSION_DEFLATE_LEVEL.key();
    /** The key of {@link #CHECKSUM_ENABLED}. */
    public static final String CHECKSUM = CHECKSUM_ENABLED.key();
    /** The key of {@link #ENCRYPTION_KEY_LIST}. */
    public static final String ENCRYPTION_KEYS = ENCRYPTION_KEY_LIST.key();
    /** The key of {@link #ENCRYPTION_CURRENT_KEY_ID}. */
    public static final String ENCRYPTION_CURRENT_KEY = ENCRYPTION_CURRENT_KEY_ID.key();
    /** The key of {@link #ENCRYPTION_REQUIRED_ENABLED}. */
    public static final String ENCRYPTION_REQUIRED = ENCRYPTION_REQUIRED_ENABLED.key();
    /** The key of {@link #MAX_CHECKPOINT_BYTES}. */
    public static final String MAX_CHECKPOINT_SIZE = MAX_CHECKPOINT_BYTES.key();

    private CodecSettings() {
    }

    /**
     * The codec the settings describe: JSON inside the configured layers.
     *
     * @throws PersistenceException naming the setting that is malformed (never a key's value)
     */
    public static LayeredCheckpointCodec codec(ProviderConfig config) {
        Objects.requireNonNull(config, "config");
        return LayeredCheckpointCodec.custom().layers(layers(config)).maxDocumentSize(MAX_CHECKPOINT_BYTES.read(config))
                .build();
    }

    /** The layers the settings describe (for blobs other than checkpoints). */
    public static DocumentLayers layers(ProviderConfig config) {
        Objects.requireNonNull(config, "config");
        var builder = DocumentLayers.custom().checksum(CHECKSUM_ENABLED.read(config))
                .compression(COMPRESSION_MODE.read(config).equals("deflate"))
                .compressionMinSize(COMPRESSION_THRESHOLD.read(config))
                .compressionLevel(COMPRESSION_DEFLATE_LEVEL.read(config));
        var keys = ENCRYPTION_KEY_LIST.find(config);
        var current = ENCRYPTION_CURRENT_KEY_ID.find(config);
        boolean required = ENCRYPTION_REQUIRED_ENABLED.read(config);
        if (keys.isPresent()) {
            builder.encryption(EncryptionKeys.parse(keys.get(), current.orElse(null)));
        } else if (current.isPresent() || required) {
            throw new PersistenceException((current.isPresent() ? ENCRYPTION_CURRENT_KEY : ENCRYPTION_REQUIRED)
                    + " is set but " + ENCRYPTION_KEYS + " (environment " + ENCRYPTION_KEY_LIST.environmentName()
                    + ") is not");
        }
        return builder.requireEncryption(required).build();
    }
}
