package dev.agentpersistence.codec;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.spi.ProviderConfig;
import java.util.Locale;
import java.util.Objects;

/**
 * Reads the storage codec from settings; every built-in provider factory stores documents with
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
    /** Compression key. */
    public static final String COMPRESSION = "agent.persistence.compression";
    /** Compression threshold key. */
    public static final String COMPRESSION_MIN_SIZE = "agent.persistence.compression.min-size";
    /** Compression level key. */
    public static final String COMPRESSION_LEVEL = "agent.persistence.compression.level";
    /** Checksum key. */
    public static final String CHECKSUM = "agent.persistence.checksum";
    /** Encryption keys key. */
    public static final String ENCRYPTION_KEYS = "agent.persistence.encryption.keys";
    /** Current encryption key id key. */
    public static final String ENCRYPTION_CURRENT_KEY = "agent.persistence.encryption.current-key";
    /** Encryption-required key. */
    public static final String ENCRYPTION_REQUIRED = "agent.persistence.encryption.required";
    /** Maximum stored checkpoint size key. */
    public static final String MAX_CHECKPOINT_SIZE = "agent.persistence.max-checkpoint-size";

    private CodecSettings() {
    }

    /**
     * The codec the settings describe: JSON inside the configured layers.
     *
     * @throws PersistenceException naming the setting that is malformed (never a key's value)
     */
    public static LayeredCheckpointCodec codec(ProviderConfig config) {
        Objects.requireNonNull(config, "config");
        var builder = LayeredCheckpointCodec.custom().layers(layers(config));
        config.get(MAX_CHECKPOINT_SIZE).filter(v -> !v.isBlank())
                .ifPresent(v -> builder.maxDocumentSize(parseSize(MAX_CHECKPOINT_SIZE, v)));
        return builder.build();
    }

    /** The layers the settings describe (for blobs other than checkpoints). */
    public static DocumentLayers layers(ProviderConfig config) {
        Objects.requireNonNull(config, "config");
        var builder = DocumentLayers.custom().checksum(config.getBoolean(CHECKSUM, true));
        compression(config, builder);
        var keys = config.get(ENCRYPTION_KEYS).filter(v -> !v.isBlank());
        var current = config.get(ENCRYPTION_CURRENT_KEY).filter(v -> !v.isBlank());
        boolean required = config.getBoolean(ENCRYPTION_REQUIRED, false);
        if (keys.isPresent()) {
            builder.encryption(EncryptionKeys.parse(keys.get(), current.orElse(null)));
        } else if (current.isPresent() || required) {
            throw new PersistenceException((current.isPresent() ? ENCRYPTION_CURRENT_KEY : ENCRYPTION_REQUIRED)
                    + " is set but " + ENCRYPTION_KEYS + " (environment "
                    + ProviderConfig.environmentName(ENCRYPTION_KEYS) + ") is not");
        }
        return builder.requireEncryption(required).build();
    }

    private static void compression(ProviderConfig config, DocumentLayers.Builder builder) {
        String mode = config.get(COMPRESSION).map(String::strip).filter(v -> !v.isEmpty()).orElse("deflate");
        switch (mode.toLowerCase(Locale.ROOT)) {
            case "deflate" -> builder.compression(true);
            case "none" -> builder.compression(false);
            default -> throw new PersistenceException("Setting '" + COMPRESSION + "' (environment "
                    + ProviderConfig.environmentName(COMPRESSION) + ") must be 'deflate' or 'none' but was '" + mode + "'");
        }
        config.get(COMPRESSION_MIN_SIZE).filter(v -> !v.isBlank())
                .ifPresent(v -> builder.compressionMinSize(parseSize(COMPRESSION_MIN_SIZE, v, true)));
        config.get(COMPRESSION_LEVEL).filter(v -> !v.isBlank()).ifPresent(v -> {
            int level;
            try {
                level = Integer.parseInt(v.strip());
            } catch (NumberFormatException e) {
                level = -1;
            }
            if (level < 1 || level > 9) {
                throw new PersistenceException("Setting '" + COMPRESSION_LEVEL + "' (environment "
                        + ProviderConfig.environmentName(COMPRESSION_LEVEL) + ") must be a deflate level from 1 to 9 but was '"
                        + v + "'");
            }
            builder.compressionLevel(level);
        });
    }

    /** Parses a size such as {@code 1048576}, {@code 512KiB}, {@code 16MiB} or {@code 10MB}. */
    static long parseSize(String key, String value) {
        return parseSize(key, value, false);
    }

    /** As {@link #parseSize(String, String)}, also accepting zero when {@code zeroAllowed}. */
    static long parseSize(String key, String value, boolean zeroAllowed) {
        String s = value.strip();
        int split = 0;
        while (split < s.length() && Character.isDigit(s.charAt(split))) {
            split++;
        }
        long multiplier = switch (s.substring(split).strip().toLowerCase(Locale.ROOT)) {
            case "", "b" -> 1L;
            case "k", "kib" -> 1L << 10;
            case "m", "mib" -> 1L << 20;
            case "g", "gib" -> 1L << 30;
            case "kb" -> 1_000L;
            case "mb" -> 1_000_000L;
            case "gb" -> 1_000_000_000L;
            default -> -1L;
        };
        if (split == 0 || multiplier < 0) {
            throw new PersistenceException("Setting '" + key + "' must be a size such as 1048576, 512KiB, 16MiB or 10MB"
                    + " but was '" + value + "'");
        }
        try {
            long size = Math.multiplyExact(Long.parseLong(s.substring(0, split)), multiplier);
            if (size < 0 || size == 0 && !zeroAllowed) {
                throw new PersistenceException("Setting '" + key + "' must be " + (zeroAllowed ? "zero or more" : "positive")
                        + " but was '" + value + "'");
            }
            return size;
        } catch (NumberFormatException | ArithmeticException e) {
            throw new PersistenceException("Setting '" + key + "' is too large: '" + value + "'", e);
        }
    }
}
