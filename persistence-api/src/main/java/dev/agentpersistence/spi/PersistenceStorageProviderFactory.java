package dev.agentpersistence.spi;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.settings.Setting;
import java.util.List;

/**
 * Creates a storage provider from configuration; the {@link java.util.ServiceLoader} service through which
 * {@link PersistenceStorageProviders} discovers backends. Each provider module lists its factory in
 * {@code META-INF/services/dev.agentpersistence.spi.PersistenceStorageProviderFactory}. Implementations need a public
 * no-argument constructor.
 */
public interface PersistenceStorageProviderFactory {

    /**
     * The name users select this backend by: {@code inmemory}, {@code file}, {@code jdbc}, {@code s3}, {@code redis}.
     */
    String name();

    /**
     * Creates a provider from the keys under {@code agent.persistence.<name>.*}.
     *
     * @throws dev.agentpersistence.PersistenceException when the configuration is invalid or the backend cannot be set
     *     up
     */
    PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config);

    /**
     * The backend's own settings ({@code agent.persistence.<name>.*}), for documentation and framework configuration
     * metadata; the settings every provider shares are listed by {@code StorageSettings.SETTINGS}. Default: none.
     */
    default List<Setting<?>> settings() {
        return List.of();
    }
}
