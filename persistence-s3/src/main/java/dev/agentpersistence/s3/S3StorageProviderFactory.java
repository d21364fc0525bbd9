package dev.agentpersistence.s3;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import java.util.List;

/**
 * Discovers the S3 provider under the name {@value #NAME}: {@link S3Storage#builder(S3StorageConfig)} over the
 * {@code agent.persistence.s3.*} keys of {@link S3StorageConfig}, with the keys every provider shares.
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
        return S3Storage.builder(S3StorageConfig.from(config)).config(config).build();
    }

    @Override
    public List<Setting<?>> settings() {
        return S3StorageConfig.SETTINGS;
    }
}
