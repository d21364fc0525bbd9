package dev.agentpersistence.storage;

import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.codec.CodecSettings;
import dev.agentpersistence.codec.DocumentLayers;
import dev.agentpersistence.codec.JsonCheckpointCodec;
import dev.agentpersistence.codec.LayeredCheckpointCodec;
import dev.agentpersistence.history.IncrementalHistoryConfig;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.ProviderConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link StorageShell} writes, and the limits it reads with. Write settings only choose the form of new
 * documents: every shell reads every form (plain JSON, checksummed, compressed, encrypted given the key, incremental
 * history) whatever its settings say.
 *
 * <p>{@link #ofDefaults()} are the settings of {@link #from(ProviderConfig)} with nothing set, so a provider built in
 * code and one found by discovery write alike: CRC32C checksums, deflate from 4 KiB, no encryption, incremental
 * history, a 64 MiB maximum checkpoint size, no time to live. Immutable and thread-safe.
 */
public final class StorageSettings {
    /** How long a saved checkpoint is kept; none by default. */
    public static final Setting<Duration> TTL = Setting.duration(
                    "agent.persistence.ttl",
                    null,
                    "Time to live of saved checkpoints (30d, 12h, PT30M): a checkpoint expires this long after its save"
                            + " (on Redis an agent's keys this long after its last save); expired ones go at the next"
                            + " deleteExpired(). Backends that keep no expiry times refuse it.")
            .checkedBy(ttl -> ttl.toMillis() < 1 ? "at least 1ms" : null);
    /** Whether reads leave out corrupt documents. */
    public static final Setting<Boolean> SKIP_CORRUPT = Setting.bool(
            "agent.persistence.skip-corrupt",
            false,
            "Reads leave out corrupt checkpoints with a WARN line instead of throwing; saves never skip.");

    /** Whether the provider only reads. */
    public static final Setting<Boolean> READ_ONLY = Setting.bool(
            "agent.persistence.read-only",
            false,
            "Opens the store for reading only: no directory, file, table, index, key or bucket is created and no"
                    + " schema migration runs; a store that does not exist is a StorageNotFoundException, and every"
                    + " save or deletion a ReadOnlyStorageException.");

    /** The smallest media part (or state value's JSON) stored once by content hash instead of inline. */
    public static final Setting<Long> BLOB_THRESHOLD = Setting.size(
            "agent.persistence.blob-threshold",
            64L << 10,
            0,
            "Media parts (images, audio, files given as bytes) of at least this size, and state values whose JSON is,"
                    + " are stored once by their SHA-256, shared by every checkpoint and agent of the store; 0 keeps"
                    + " them inline. Needs a store with a segment area (every built-in one) or a blob store; with a"
                    + " time to live everything stays inline.");

    /** Another store keeping the parts stored by reference. */
    public static final Setting<String> BLOB_STORE = Setting.text(
            "agent.persistence.blob-store",
            null,
            "A storage URI (s3://bucket/prefix, file:dir, jdbc:…, redis://…) of another store that keeps the parts"
                    + " stored by reference (agent.persistence.blob-threshold) in its segment area, with this store's"
                    + " encryption and compression; the other settings apply to it too. Unset or 'main': this store.");

    /**
     * The settings every provider shares, each declared once: the stored form's, incremental history's, then the time
     * to live, skipping corrupt documents, the read-only mode and the parts stored by reference.
     */
    public static final List<Setting<?>> SETTINGS = concat(
            CodecSettings.SETTINGS,
            IncrementalHistoryConfig.SETTINGS,
            List.of(TTL, SKIP_CORRUPT, READ_ONLY, BLOB_THRESHOLD, BLOB_STORE));

    /** The {@link #BLOB_STORE} value naming this store. */
    public static final String MAIN_STORE = "main";

    /** Holds the defaults; the JVM computes them when first asked for, which a provider found by discovery never is. */
    private static final class Defaults {
        static final StorageSettings INSTANCE = from(ProviderConfig.empty());
    }

    private final int formatVersion;
    private final DocumentLayers layers;
    private final long maxCheckpointSize;
    private final boolean incrementalHistory;
    private final IncrementalHistoryConfig history;
    private final Duration ttl;
    private final boolean skipCorrupt;
    private final boolean readOnly;
    private final long blobThreshold;
    private final String blobStore;

    private StorageSettings(
            int formatVersion,
            DocumentLayers layers,
            long maxCheckpointSize,
            boolean incrementalHistory,
            IncrementalHistoryConfig history,
            Duration ttl,
            boolean skipCorrupt,
            boolean readOnly,
            long blobThreshold,
            String blobStore) {
        this.formatVersion = formatVersion;
        this.layers = layers;
        this.maxCheckpointSize = maxCheckpointSize;
        this.incrementalHistory = incrementalHistory;
        this.history = history;
        this.ttl = ttl;
        this.skipCorrupt = skipCorrupt;
        this.readOnly = readOnly;
        this.blobThreshold = blobThreshold;
        this.blobStore = blobStore;
    }

    @SafeVarargs
    private static List<Setting<?>> concat(List<Setting<?>>... lists) {
        var all = new ArrayList<Setting<?>>();
        for (List<Setting<?>> list : lists) {
            all.addAll(list);
        }
        return List.copyOf(all);
    }

    /** The defaults: those of {@link #from(ProviderConfig)} with no key set. */
    public static StorageSettings ofDefaults() {
        return Defaults.INSTANCE;
    }

    /** A builder starting from {@link #ofDefaults()}. */
    public static Builder custom() {
        return new Builder(Defaults.INSTANCE);
    }

    /** A builder starting from {@code settings}. */
    public static Builder from(StorageSettings settings) {
        return new Builder(Objects.requireNonNull(settings, "settings"));
    }

    /**
     * The settings of the {@code agent.persistence.*} keys: the codec keys of {@link CodecSettings} and the
     * {@code agent.persistence.history.*} keys of {@link IncrementalHistoryConfig} (incremental history on unless
     * {@code agent.persistence.history.incremental} says otherwise), {@link #TTL}, {@link #SKIP_CORRUPT} and
     * {@link #READ_ONLY}.
     *
     * @throws dev.agentpersistence.PersistenceException naming a malformed setting (never a key's value)
     */
    public static StorageSettings from(ProviderConfig config) {
        Objects.requireNonNull(config, "config");
        LayeredCheckpointCodec codec = CodecSettings.codec(config);
        return new StorageSettings(
                ((JsonCheckpointCodec) codec.inner()).writeFormat(),
                codec.layers(),
                codec.maxDocumentSize(),
                IncrementalHistoryConfig.ENABLED.find(config).orElse(true),
                IncrementalHistoryConfig.of(config),
                TTL.find(config).orElse(null),
                SKIP_CORRUPT.read(config),
                READ_ONLY.read(config),
                BLOB_THRESHOLD.read(config),
                BLOB_STORE.find(config).filter(uri -> !uri.equals(MAIN_STORE)).orElse(null));
    }

    /**
     * The version of the stored form new documents are written in (default
     * {@value JsonCheckpointCodec#FORMAT_VERSION}); every version is read whatever this says.
     */
    public int formatVersion() {
        return formatVersion;
    }

    /** The layers new documents are written with, and the keys encrypted ones are read with. */
    public DocumentLayers layers() {
        return layers;
    }

    /**
     * The largest checkpoint, in bytes, as encoded and as stored; a save over it is refused with
     * {@link dev.agentpersistence.CheckpointTooLargeException}, and no read allocates more for one document (a larger
     * stored one is a {@link dev.agentpersistence.CorruptCheckpointException}).
     */
    public long maxCheckpointSize() {
        return maxCheckpointSize;
    }

    /** Whether long histories are written incrementally (when the backend has a segment area). */
    public boolean incrementalHistory() {
        return incrementalHistory;
    }

    /** Block size, tiers, grace period and cache sizes of incremental history. */
    public IncrementalHistoryConfig history() {
        return history;
    }

    /** How long a saved checkpoint is kept, when it expires at all. */
    public Optional<Duration> ttl() {
        return Optional.ofNullable(ttl);
    }

    /**
     * Whether reads leave out corrupt documents with a WARN line instead of throwing
     * {@link dev.agentpersistence.CorruptCheckpointException} (default {@code false}); saves never skip.
     */
    public boolean skipCorrupt() {
        return skipCorrupt;
    }

    /**
     * Whether the provider only reads (default {@code false}): it creates nothing and migrates nothing when it opens, a
     * store that does not exist is a {@link dev.agentpersistence.StorageNotFoundException}, and every write a
     * {@link dev.agentpersistence.ReadOnlyStorageException}.
     */
    public boolean readOnly() {
        return readOnly;
    }

    /**
     * The smallest media part (or state value's JSON) stored by reference, in bytes (default 64 KiB); 0 when every part
     * and value stays inline. Applies where the store has a segment area or a {@linkplain #blobStore() blob store},
     * with format 2 and later, and without a {@linkplain #ttl() time to live} (a blob shared by agents has no single
     * expiry to follow).
     */
    public long blobThreshold() {
        return blobThreshold;
    }

    /** The storage URI of the store keeping the parts stored by reference, when it is not this one. */
    public Optional<String> blobStore() {
        return Optional.ofNullable(blobStore);
    }

    /** The codec of these settings: JSON inside {@link #layers()}, limited to {@link #maxCheckpointSize()}. */
    public LayeredCheckpointCodec codec() {
        return LayeredCheckpointCodec.custom()
                .inner(JsonCheckpointCodec.writingFormat(formatVersion))
                .layers(layers)
                .maxDocumentSize(maxCheckpointSize)
                .build();
    }

    @Override
    public String toString() {
        return "StorageSettings["
                + (formatVersion == JsonCheckpointCodec.FORMAT_VERSION ? "" : "format " + formatVersion + ", ") + layers
                + ", maxCheckpointSize=" + maxCheckpointSize + ", incrementalHistory="
                + incrementalHistory + (incrementalHistory ? " " + history : "") + (ttl == null ? "" : ", ttl=" + ttl)
                + (skipCorrupt ? ", skipCorrupt" : "") + (readOnly ? ", readOnly" : "") + ", blobThreshold="
                + blobThreshold + (blobStore == null ? "" : ", blobStore") + "]";
    }

    /** Builds {@link StorageSettings}; every method validates its argument. */
    public static final class Builder {
        private int formatVersion;
        private DocumentLayers layers;
        private long maxCheckpointSize;
        private boolean incrementalHistory;
        private IncrementalHistoryConfig history;
        private Duration ttl;
        private boolean skipCorrupt;
        private boolean readOnly;
        private long blobThreshold;
        private String blobStore;

        private Builder(StorageSettings from) {
            this.formatVersion = from.formatVersion;
            this.layers = from.layers;
            this.maxCheckpointSize = from.maxCheckpointSize;
            this.incrementalHistory = from.incrementalHistory;
            this.history = from.history;
            this.ttl = from.ttl;
            this.skipCorrupt = from.skipCorrupt;
            this.readOnly = from.readOnly;
            this.blobThreshold = from.blobThreshold;
            this.blobStore = from.blobStore;
        }

        /** The layers (compression, checksum, encryption keys); see {@link CodecSettings#layers(ProviderConfig)}. */
        public Builder layers(DocumentLayers layers) {
            this.layers = Objects.requireNonNull(layers, "layers");
            return this;
        }

        /**
         * The layers and maximum size of a JSON codec: {@link CheckpointCodec#json()} (no layers) or a
         * {@link LayeredCheckpointCodec} over it. Other codecs cannot be read by every reader and are refused.
         *
         * @throws IllegalArgumentException for a codec that does not write the project's JSON documents
         */
        public Builder codec(CheckpointCodec codec) {
            Objects.requireNonNull(codec, "codec");
            if (codec instanceof JsonCheckpointCodec json) {
                this.formatVersion = json.writeFormat();
                this.layers = DocumentLayers.none();
                return this;
            }
            if (codec instanceof LayeredCheckpointCodec layered
                    && layered.inner() instanceof JsonCheckpointCodec json) {
                this.formatVersion = json.writeFormat();
                this.layers = layered.layers();
                this.maxCheckpointSize = layered.maxDocumentSize();
                return this;
            }
            throw new IllegalArgumentException("Codec " + codec.getClass().getName() + " does not write the stored form"
                    + " every reader reads (JSON, optionally inside DocumentLayers); choose layers instead");
        }

        /**
         * The version of the stored form to write, {@value JsonCheckpointCodec#OLDEST_WRITABLE_FORMAT} to
         * {@value JsonCheckpointCodec#FORMAT_VERSION}; see {@link JsonCheckpointCodec#writingFormat(int)}.
         */
        public Builder formatVersion(int version) {
            JsonCheckpointCodec.writingFormat(version);
            this.formatVersion = version;
            return this;
        }

        /** The maximum checkpoint size in bytes, {@code > 0}; see {@link StorageSettings#maxCheckpointSize()}. */
        public Builder maxCheckpointSize(long bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("maxCheckpointSize must be positive but was " + bytes);
            }
            this.maxCheckpointSize = bytes;
            return this;
        }

        /** Whether to write long histories incrementally (default {@code true}). */
        public Builder incrementalHistory(boolean incrementalHistory) {
            this.incrementalHistory = incrementalHistory;
            return this;
        }

        /** The incremental history tuning (default {@link IncrementalHistoryConfig#ofDefaults()}). */
        public Builder history(IncrementalHistoryConfig history) {
            this.history = Objects.requireNonNull(history, "history");
            return this;
        }

        /** How long saved checkpoints are kept, positive, or {@code null} for ever (the default). */
        public Builder ttl(Duration ttl) {
            if (ttl != null && (ttl.isZero() || ttl.isNegative())) {
                throw new IllegalArgumentException("ttl must be positive but was " + ttl);
            }
            this.ttl = ttl;
            return this;
        }

        /** Whether reads leave out corrupt documents with a WARN line (default {@code false}). */
        public Builder skipCorrupt(boolean skipCorrupt) {
            this.skipCorrupt = skipCorrupt;
            return this;
        }

        /** Whether the provider only reads (default {@code false}); see {@link StorageSettings#readOnly()}. */
        public Builder readOnly(boolean readOnly) {
            this.readOnly = readOnly;
            return this;
        }

        /** The smallest media part stored by reference, in bytes, {@code >= 0} (0: every part inline). */
        public Builder blobThreshold(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("blobThreshold must not be negative but was " + bytes);
            }
            this.blobThreshold = bytes;
            return this;
        }

        /** The storage URI of another store for the parts stored by reference, or {@code null} for this one. */
        public Builder blobStore(String uri) {
            if (uri != null && uri.isBlank()) {
                throw new IllegalArgumentException("blobStore must not be blank");
            }
            this.blobStore = uri == null || uri.strip().equals(MAIN_STORE) ? null : uri.strip();
            return this;
        }

        /** The settings. */
        public StorageSettings build() {
            return new StorageSettings(
                    formatVersion,
                    layers,
                    maxCheckpointSize,
                    incrementalHistory,
                    history,
                    ttl,
                    skipCorrupt,
                    readOnly,
                    blobThreshold,
                    blobStore);
        }
    }
}
