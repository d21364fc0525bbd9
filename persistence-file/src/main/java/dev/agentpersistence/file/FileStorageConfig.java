package dev.agentpersistence.file;

import dev.agentpersistence.codec.CheckpointCodec;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Immutable settings of a {@link FileStorageProvider}. Build with {@link #custom()}; every
 * setting has a default ({@link #ofDefaults()}).
 */
public final class FileStorageConfig {
    /** Default root directory: {@code ./agent-checkpoints/}. */
    public static final Path DEFAULT_DIRECTORY = Path.of("agent-checkpoints");
    /** Default age after which a temporary file is considered abandoned: 10 minutes. */
    public static final Duration DEFAULT_TEMP_FILE_GRACE_PERIOD = Duration.ofMinutes(10);

    private final Path directory;
    private final CheckpointCodec codec;
    private final boolean fsync;
    private final boolean skipCorrupt;
    private final boolean cleanUpOnOpen;
    private final Duration tempFileGracePeriod;
    private final Clock clock;

    private FileStorageConfig(Builder builder) {
        this.directory = builder.directory;
        this.codec = builder.codec;
        this.fsync = builder.fsync;
        this.skipCorrupt = builder.skipCorrupt;
        this.cleanUpOnOpen = builder.cleanUpOnOpen;
        this.tempFileGracePeriod = builder.tempFileGracePeriod;
        this.clock = builder.clock;
    }

    /** Every setting at its default. */
    public static FileStorageConfig ofDefaults() {
        return custom().build();
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder();
    }

    /** A builder starting from {@code config}. */
    public static Builder from(FileStorageConfig config) {
        Objects.requireNonNull(config, "config");
        var builder = new Builder();
        builder.codec = config.codec;
        return builder.directory(config.directory).fsync(config.fsync)
                .skipCorrupt(config.skipCorrupt).cleanUpOnOpen(config.cleanUpOnOpen)
                .tempFileGracePeriod(config.tempFileGracePeriod).clock(config.clock);
    }

    /** The root directory holding one directory per agent. */
    public Path directory() {
        return directory;
    }

    /**
     * The codec given to {@link Builder#codec}, or {@code null} when none was: then the provider's
     * {@link dev.agentpersistence.storage.StorageSettings} choose what is written.
     *
     * @deprecated choose what is written with {@code FileStorageProvider.of(config, settings)}
     */
    @Deprecated
    public CheckpointCodec codec() {
        return codec;
    }

    /** Whether files and directories are forced to disk before a save returns (default {@code true}). */
    public boolean fsync() {
        return fsync;
    }

    /**
     * Whether reads leave out corrupt files with a WARN log line instead of throwing
     * {@link dev.agentpersistence.CorruptCheckpointException} (default {@code false}). Saves never skip.
     */
    public boolean skipCorrupt() {
        return skipCorrupt;
    }

    /** Whether opening the provider removes temporary files older than the grace period (default {@code true}). */
    public boolean cleanUpOnOpen() {
        return cleanUpOnOpen;
    }

    /**
     * How old a temporary file, or an id reservation without its checkpoint file, must be before it
     * counts as abandoned by a crashed writer and may be removed (default 10 minutes).
     */
    public Duration tempFileGracePeriod() {
        return tempFileGracePeriod;
    }

    /** The clock file ages are measured with. */
    public Clock clock() {
        return clock;
    }

    @Override
    public String toString() {
        return "FileStorageConfig[directory=" + directory + (codec == null ? "" : ", codec=" + codec.getClass().getSimpleName())
                + ", fsync=" + fsync + ", skipCorrupt=" + skipCorrupt + ", cleanUpOnOpen=" + cleanUpOnOpen
                + ", tempFileGracePeriod=" + tempFileGracePeriod + "]";
    }

    /** Builds {@link FileStorageConfig}s; every method validates its argument. */
    public static final class Builder {
        private Path directory = DEFAULT_DIRECTORY;
        private CheckpointCodec codec;
        private boolean fsync = true;
        private boolean skipCorrupt;
        private boolean cleanUpOnOpen = true;
        private Duration tempFileGracePeriod = DEFAULT_TEMP_FILE_GRACE_PERIOD;
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        /** The root directory; created when missing. */
        public Builder directory(Path directory) {
            this.directory = Objects.requireNonNull(directory, "directory");
            return this;
        }

        /** The root directory, as a path string. */
        public Builder directory(String directory) {
            Objects.requireNonNull(directory, "directory");
            if (directory.isBlank()) {
                throw new IllegalArgumentException("directory must not be blank");
            }
            return directory(Path.of(directory));
        }

        /**
         * The layers and maximum size of a JSON codec, for what is written.
         *
         * @deprecated use {@code FileStorageProvider.of(config, settings)}; see
         *             {@link dev.agentpersistence.storage.StorageSettings.Builder#codec(CheckpointCodec)}
         */
        @Deprecated
        public Builder codec(CheckpointCodec codec) {
            this.codec = Objects.requireNonNull(codec, "codec");
            return this;
        }

        public Builder fsync(boolean fsync) {
            this.fsync = fsync;
            return this;
        }

        public Builder skipCorrupt(boolean skipCorrupt) {
            this.skipCorrupt = skipCorrupt;
            return this;
        }

        public Builder cleanUpOnOpen(boolean cleanUpOnOpen) {
            this.cleanUpOnOpen = cleanUpOnOpen;
            return this;
        }

        /** Must be positive. */
        public Builder tempFileGracePeriod(Duration gracePeriod) {
            Objects.requireNonNull(gracePeriod, "gracePeriod");
            if (gracePeriod.isNegative() || gracePeriod.isZero()) {
                throw new IllegalArgumentException("tempFileGracePeriod must be positive but was " + gracePeriod);
            }
            this.tempFileGracePeriod = gracePeriod;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public FileStorageConfig build() {
            return new FileStorageConfig(this);
        }
    }
}
