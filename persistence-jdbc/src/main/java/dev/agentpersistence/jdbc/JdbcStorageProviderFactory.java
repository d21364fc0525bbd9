package dev.agentpersistence.jdbc;

import dev.agentpersistence.spi.DeclaredStorageProviderFactory;
import dev.agentpersistence.spi.UriForm;

/**
 * Discovers the JDBC provider under the name {@value #NAME}: {@link JdbcStorage#builder(JdbcStorageConfig)} over the
 * {@code agent.persistence.jdbc.*} keys of {@link JdbcStorageConfig}, with the keys every provider shares. Opens
 * {@code jdbc:<any JDBC URL>}, e.g. {@code jdbc:sqlite:checkpoints.db}; the dialect follows from the URL.
 */
public final class JdbcStorageProviderFactory extends DeclaredStorageProviderFactory {
    /** The provider name. */
    public static final String NAME = "jdbc";

    /** Used by {@link java.util.ServiceLoader}. */
    public JdbcStorageProviderFactory() {
        super(
                NAME,
                JdbcStorageConfig.SETTINGS,
                config -> JdbcStorage.builder(JdbcStorageConfig.from(config))
                        .config(config)
                        .build(),
                UriForm.setting("jdbc:<url>", JdbcStorageConfig.URL, "jdbc:"));
    }
}
