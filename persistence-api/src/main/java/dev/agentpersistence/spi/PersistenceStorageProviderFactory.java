package dev.agentpersistence.spi;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.settings.Setting;
import java.util.List;
import java.util.Optional;

/**
 * Creates a storage provider from configuration; the {@link java.util.ServiceLoader} service through which
 * {@link PersistenceStorageProviders} discovers backends. Each provider module lists its factory in
 * {@code META-INF/services/dev.agentpersistence.spi.PersistenceStorageProviderFactory}. Implementations need a public
 * no-argument constructor. A factory made of a name, settings, a function from {@link ProviderConfig} to the provider
 * and {@link UriForm}s extends {@link DeclaredStorageProviderFactory}, as the built-in ones do; implementing this
 * interface directly works as well.
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

    /**
     * The store {@code uri} names, when it has one of this factory's {@linkplain #uriForms() forms}: {@code base} with
     * the keys the URI sets and the provider named ({@link StorageUri#select}), described without passwords. Default:
     * no form, for factories selected by name only. {@link StorageUri#parse} asks every factory in turn.
     *
     * @throws IllegalArgumentException when {@code uri} has this factory's scheme but not a form it accepts
     */
    default Optional<StorageUri> parseUri(String uri, ProviderConfig base) {
        return Optional.empty();
    }

    /** The URI forms {@link #parseUri} accepts, for help and error messages, e.g. {@code jdbc:<url>}. Default: none. */
    default List<String> uriForms() {
        return List.of();
    }
}
