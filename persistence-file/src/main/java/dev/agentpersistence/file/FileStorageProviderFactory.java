package dev.agentpersistence.file;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import java.util.List;

/**
 * Discovers the file provider under the name {@value #NAME}: {@link FileStorage#builder(FileStorageConfig)} over the
 * {@code agent.persistence.file.*} keys of {@link FileStorageConfig}, with the keys every provider shares.
 */
public final class FileStorageProviderFactory implements PersistenceStorageProviderFactory {
    /** The provider name. */
    public static final String NAME = "file";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
        return FileStorage.builder(FileStorageConfig.from(config))
                .config(config)
                .build();
    }

    @Override
    public List<Setting<?>> settings() {
        return FileStorageConfig.SETTINGS;
    }
}
