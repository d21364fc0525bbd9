package dev.agentpersistence.jdbc;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import java.util.List;
import java.util.Optional;

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

    /** {@code jdbc:<any JDBC URL>}, e.g. {@code jdbc:sqlite:checkpoints.db}. */
    @Override
    public Optional<StorageUri> parseUri(String uri, ProviderConfig base) {
        if (!StorageUri.hasScheme(uri, "jdbc:")) {
            return Optional.empty();
        }
        return Optional.of(
                StorageUri.select(NAME, base.with(JdbcStorageConfig.URL.key(), uri), ProviderConfig.redact(uri)));
    }

    @Override
    public List<String> uriForms() {
        return List.of("jdbc:<url>");
    }
}
