package dev.agentpersistence.file;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageSettings;

/**
 * Creates {@link FileStorageProvider}s for discovery under the name {@value #NAME}. Keys:
 * <ul>
 *   <li>{@value #DIRECTORY} — root directory (default {@code ./agent-checkpoints/})</li>
 *   <li>{@value #FSYNC} — {@code true}/{@code false} (default {@code true})</li>
 *   <li>{@value #SKIP_CORRUPT} — {@code true}/{@code false} (default {@code false})</li>
 *   <li>{@value #TEMP_FILE_GRACE_PERIOD} — a duration such as {@code 10m} (default 10 minutes)</li>
 *   <li>the keys every provider shares ({@link StorageSettings#from(ProviderConfig)})</li>
 * </ul>
 */
public final class FileStorageProviderFactory implements PersistenceStorageProviderFactory {
    /** The provider name. */
    public static final String NAME = "file";
    /** Root directory key. */
    public static final String DIRECTORY = "agent.persistence.file.dir";
    /** Fsync key. */
    public static final String FSYNC = "agent.persistence.file.fsync";
    /** Skip-corrupt key. */
    public static final String SKIP_CORRUPT = "agent.persistence.file.skip-corrupt";
    /** Grace period key. */
    public static final String TEMP_FILE_GRACE_PERIOD = "agent.persistence.file.temp-file-grace-period";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
        var builder = FileStorageConfig.custom()
                .directory(config.get(DIRECTORY, "./agent-checkpoints/"))
                .fsync(config.getBoolean(FSYNC, true))
                .skipCorrupt(config.getBoolean(SKIP_CORRUPT, false));
        config.getDuration(TEMP_FILE_GRACE_PERIOD).ifPresent(builder::tempFileGracePeriod);
        return FileStorageProvider.of(builder.build(), StorageSettings.from(config));
    }
}
