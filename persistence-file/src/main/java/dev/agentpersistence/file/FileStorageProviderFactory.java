package dev.agentpersistence.file;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.Setting;
import dev.agentpersistence.storage.StorageSettings;
import java.time.Duration;
import java.util.List;

/**
 * Creates {@link FileStorageProvider}s for discovery under the name {@value #NAME}, from the
 * {@code agent.persistence.file.*} settings below and the ones every provider shares
 * ({@link StorageSettings#from(ProviderConfig)}).
 */
public final class FileStorageProviderFactory implements PersistenceStorageProviderFactory {
    /** The provider name. */
    public static final String NAME = "file";
    /** The root directory. */
    public static final Setting<String> DIRECTORY_SETTING = Setting.text("agent.persistence.file.dir",
            "./agent-checkpoints/", "Root directory: one directory per agent.");
    /** Whether saves force files and directories to disk. */
    public static final Setting<Boolean> FSYNC_SETTING = Setting.bool("agent.persistence.file.fsync", true,
            "Force files and directories to disk before a save returns.");
    /** Whether reads skip corrupt files. */
    public static final Setting<Boolean> SKIP_CORRUPT_SETTING = Setting.bool("agent.persistence.file.skip-corrupt",
            false, "Reads leave out corrupt files with a WARN line instead of throwing.");
    /** When an abandoned temporary file or reservation may be removed. */
    public static final Setting<Duration> TEMP_FILE_GRACE_PERIOD_SETTING = Setting.duration(
            "agent.persistence.file.temp-file-grace-period", FileStorageConfig.DEFAULT_TEMP_FILE_GRACE_PERIOD,
            "Age after which a crashed writer's temporary file or id reservation is removed.");
    /** Root directory key. */
    public static final String DIRECTORY = DIRECTORY_SETTING.key();
    /** Fsync key. */
    public static final String FSYNC = FSYNC_SETTING.key();
    /** Skip-corrupt key. */
    public static final String SKIP_CORRUPT = SKIP_CORRUPT_SETTING.key();
    /** Grace period key. */
    public static final String TEMP_FILE_GRACE_PERIOD = TEMP_FILE_GRACE_PERIOD_SETTING.key();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
        var files = FileStorageConfig.custom()
                .directory(DIRECTORY_SETTING.read(config))
                .fsync(FSYNC_SETTING.read(config))
                .skipCorrupt(SKIP_CORRUPT_SETTING.read(config))
                .tempFileGracePeriod(TEMP_FILE_GRACE_PERIOD_SETTING.read(config))
                .build();
        return FileStorageProvider.of(files, StorageSettings.from(config));
    }

    @Override
    public List<Setting<?>> settings() {
        return List.of(DIRECTORY_SETTING, FSYNC_SETTING, SKIP_CORRUPT_SETTING, TEMP_FILE_GRACE_PERIOD_SETTING);
    }
}
