package dev.agentpersistence.jdbc;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageSettings;
import java.util.List;
import java.util.Objects;

/**
 * Discovers the JDBC provider under the name {@value #NAME}; reads the {@code agent.persistence.jdbc.*} keys described
 * in {@link JdbcStorageConfig}, and the keys every provider shares ({@link StorageSettings#from(ProviderConfig)}).
 */
public final class JdbcStorageProviderFactory implements PersistenceStorageProviderFactory {
    /** The provider name. */
    public static final String NAME = "jdbc";

    /** Used by {@link java.util.ServiceLoader}. */
    public JdbcStorageProviderFactory() {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
        Objects.requireNonNull(config, "config");
        return JdbcStorageProvider.builder()
                .config(JdbcStorageConfig.from(config))
                .settings(StorageSettings.from(config))
                .build();
    }

    @Override
    public List<Setting<?>> settings() {
        return JdbcStorageConfig.SETTINGS;
    }
}
