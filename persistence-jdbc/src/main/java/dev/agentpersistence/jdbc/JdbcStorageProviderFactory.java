package dev.agentpersistence.jdbc;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import java.util.List;

/**
 * Discovers the JDBC provider under the name {@value #NAME}: {@link JdbcStorage#builder(JdbcStorageConfig)} over the
 * {@code agent.persistence.jdbc.*} keys of {@link JdbcStorageConfig}, with the keys every provider shares.
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
        return JdbcStorage.builder(JdbcStorageConfig.from(config))
                .config(config)
                .build();
    }

    @Override
    public List<Setting<?>> settings() {
        return JdbcStorageConfig.SETTINGS;
    }
}
