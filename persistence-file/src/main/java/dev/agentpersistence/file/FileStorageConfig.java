package dev.agentpersistence.file;

import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.settings.SettingValues;
import dev.agentpersistence.spi.ProviderConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Immutable settings of the file provider ({@link FileStorage}), each declared once below. Build with
 * {@link #custom()}, take {@link #ofDefaults()}, or read the keys with {@link #from(ProviderConfig)}; skipping corrupt
 * records and the clock are the shell's ({@link dev.agentpersistence.storage.StorageSettings}).
 */
public final class FileStorageConfig {
    /** The root directory, holding one directory per agent. */
    public static final Setting<Path> DIRECTORY = Setting.custom(
            "agent.persistence.file.dir",
            "path",
            Path.of("agent-checkpoints"),
            "a file system path",
            Path::of,
            Path::toString,
            "Root directory: one directory per agent.");
    /** Whether saves force files and directories to disk. */
    public static final Setting<Boolean> FSYNC = Setting.bool(
            "agent.persistence.file.fsync", true, "Force files and directories to disk before a save returns.");
    /** Whether opening removes abandoned temporary files. */
    public static final Setting<Boolean> CLEAN_UP_ON_OPEN = Setting.bool(
            "agent.persistence.file.clean-up-on-open",
            true,
            "Opening the storage removes temporary files older than the grace period.");
    /** When an abandoned temporary file or reservation may be removed. */
    public static final Setting<Duration> TEMP_FILE_GRACE_PERIOD = Setting.duration(
            "agent.persistence.file.temp-file-grace-period",
            Duration.ofMinutes(10),
            "Age after which a crashed writer's temporary file or id reservation is removed.");
    /** The form new agents are stored in. */
    public static final Setting<String> LAYOUT = Setting.choice(
            "agent.persistence.file.layout",
            "journal",
            List.of("journal", "files"),
            "How new agents are stored: `journal` (one file per agent, one append per save) or `files` (one file"
                    + " per checkpoint). An agent keeps the form it was created in; every provider reads both.");
    /** Every file setting, in documentation order. */
    public static final List<Setting<?>> SETTINGS =
            List.of(DIRECTORY, FSYNC, LAYOUT, CLEAN_UP_ON_OPEN, TEMP_FILE_GRACE_PERIOD);

    private final SettingValues values;

    private FileStorageConfig(SettingValues values) {
        this.values = values;
    }

    /** Every setting at its default. */
    public static FileStorageConfig ofDefaults() {
        return custom().build();
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder(SettingValues.defaults(SETTINGS));
    }

    /** A builder starting from these settings. */
    public Builder toBuilder() {
        return new Builder(values);
    }

    /**
     * Reads the {@code agent.persistence.file.*} keys; unset keys keep their defaults.
     *
     * @throws dev.agentpersistence.PersistenceException naming a malformed setting
     */
    public static FileStorageConfig from(ProviderConfig config) {
        return new Builder(SettingValues.read(SETTINGS, config)).build();
    }

    /** The root directory holding one directory per agent. */
    public Path directory() {
        return values.get(DIRECTORY);
    }

    /** Whether files and directories are forced to disk before a save returns (default {@code true}). */
    public boolean fsync() {
        return values.get(FSYNC);
    }

    /**
     * Whether new agents are kept as a journal — all of an agent's checkpoints in one file, a save appending one record
     * — rather than one file per checkpoint (default {@code true}). Agents keep the form they were created in, whatever
     * later writers are set to, and every provider reads both.
     */
    public boolean journal() {
        return values.get(LAYOUT).equals("journal");
    }

    /** Whether opening the provider removes temporary files older than the grace period (default {@code true}). */
    public boolean cleanUpOnOpen() {
        return values.get(CLEAN_UP_ON_OPEN);
    }

    /**
     * How old a temporary file, or an id reservation without its checkpoint file, must be before it counts as abandoned
     * by a crashed writer and may be removed (default 10 minutes).
     */
    public Duration tempFileGracePeriod() {
        return values.get(TEMP_FILE_GRACE_PERIOD);
    }

    /** The settings. */
    @Override
    public String toString() {
        return "FileStorageConfig" + values;
    }

    /** Builds {@link FileStorageConfig}s; every method checks its argument against the declaration. */
    public static final class Builder {
        private SettingValues values;

        private Builder(SettingValues values) {
            this.values = values;
        }

        /** The root directory; created when missing. */
        public Builder directory(Path directory) {
            values = values.with(DIRECTORY, directory);
            return this;
        }

        /** The root directory, as a path string (not blank). */
        public Builder directory(String directory) {
            if (Objects.requireNonNull(directory, "directory").isBlank()) {
                throw new IllegalArgumentException(DIRECTORY.key() + " must not be blank");
            }
            return directory(Path.of(directory));
        }

        /** Whether saves force files and directories to disk (default {@code true}). */
        public Builder fsync(boolean fsync) {
            values = values.with(FSYNC, fsync);
            return this;
        }

        /**
         * Whether new agents are kept as a journal (default {@code true}) or as one file per checkpoint; see
         * {@link FileStorageConfig#journal()}.
         */
        public Builder journal(boolean journal) {
            values = values.with(LAYOUT, journal ? "journal" : "files");
            return this;
        }

        /** Whether opening removes abandoned temporary files (default {@code true}). */
        public Builder cleanUpOnOpen(boolean cleanUpOnOpen) {
            values = values.with(CLEAN_UP_ON_OPEN, cleanUpOnOpen);
            return this;
        }

        /** Age after which an abandoned temporary file or reservation is removed; positive. */
        public Builder tempFileGracePeriod(Duration gracePeriod) {
            values = values.with(TEMP_FILE_GRACE_PERIOD, gracePeriod);
            return this;
        }

        /** The settings. */
        public FileStorageConfig build() {
            return new FileStorageConfig(values);
        }
    }
}
