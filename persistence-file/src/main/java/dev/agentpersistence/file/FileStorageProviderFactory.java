package dev.agentpersistence.file;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageSettings;
import java.util.List;

/**
 * Creates {@link FileStorageProvider}s for discovery under the name {@value #NAME}, from the settings of
 * {@link FileStorageConfig} and the ones every provider shares ({@link StorageSettings#from(ProviderConfig)}).
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
        return FileStorageProvider.of(FileStorageConfig.of(config), StorageSettings.from(config));
    }

    @Override
    public List<Setting<?>> settings() {
        return FileStorageConfig.SETTINGS;
    }
}
