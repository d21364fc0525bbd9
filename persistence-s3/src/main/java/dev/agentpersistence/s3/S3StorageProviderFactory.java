package dev.agentpersistence.s3;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageSettings;
import java.util.List;

/**
 * Discovers the S3 provider under the name {@value #NAME}, from the settings of {@link S3StorageConfig} and the keys
 * every provider shares ({@link StorageSettings#from(ProviderConfig)}).
 */
public final class S3StorageProviderFactory implements PersistenceStorageProviderFactory {
    /** The provider name. */
    public static final String NAME = "s3";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
        return S3StorageProvider.builder(S3StorageConfig.of(config))
                .settings(StorageSettings.from(config))
                .build();
    }

    @Override
    public List<Setting<?>> settings() {
        return S3StorageConfig.SETTINGS;
    }
}
