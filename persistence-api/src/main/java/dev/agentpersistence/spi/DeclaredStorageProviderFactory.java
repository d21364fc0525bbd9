package dev.agentpersistence.spi;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.settings.Setting;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A {@link PersistenceStorageProviderFactory} declared by its parts: the name, the backend's own settings, how a
 * provider is made from a {@link ProviderConfig}, and the {@link UriForm}s it opens. Each built-in factory is one such
 * declaration in its public no-argument constructor, which {@link java.util.ServiceLoader} calls:
 *
 * <pre>{@code
 * public final class MyStorageProviderFactory extends DeclaredStorageProviderFactory {
 *     public static final String NAME = "my";
 *
 *     public MyStorageProviderFactory() {
 *         super(NAME, MyStorageConfig.SETTINGS,
 *                 config -> MyStorage.builder(MyStorageConfig.from(config)).config(config).build(),
 *                 UriForm.directory("my:", MyStorageConfig.DIRECTORY));
 *     }
 * }
 * }</pre>
 *
 * {@link #parseUri} tries the forms in the order given; a URI none of their schemes marks is not this factory's.
 */
public abstract class DeclaredStorageProviderFactory implements PersistenceStorageProviderFactory {
    private final String name;
    private final List<Setting<?>> settings;
    private final Function<ProviderConfig, ? extends PersistenceStorageProvider<CheckpointFilter>> creator;
    private final List<UriForm> uriForms;

    /**
     * @param name the name users select the backend by
     * @param settings the backend's own settings ({@link #settings()})
     * @param creator makes a provider from the keys under {@code agent.persistence.<name>.*} ({@link #create})
     * @param uriForms the URI forms the factory opens, none for a backend selected by name only
     */
    protected DeclaredStorageProviderFactory(
            String name,
            List<? extends Setting<?>> settings,
            Function<ProviderConfig, ? extends PersistenceStorageProvider<CheckpointFilter>> creator,
            UriForm... uriForms) {
        this.name = Objects.requireNonNull(name, "name");
        this.settings = List.copyOf(settings);
        this.creator = Objects.requireNonNull(creator, "creator");
        this.uriForms = List.of(uriForms);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
        return creator.apply(Objects.requireNonNull(config, "config"));
    }

    @Override
    public List<Setting<?>> settings() {
        return settings;
    }

    /** The first of the {@linkplain #uriForms() forms} whose scheme {@code uri} has reads it; else empty. */
    @Override
    public Optional<StorageUri> parseUri(String uri, ProviderConfig base) {
        for (UriForm form : uriForms) {
            Optional<StorageUri> parsed = form.parse(name, uri, base);
            if (parsed.isPresent()) {
                return parsed;
            }
        }
        return Optional.empty();
    }

    @Override
    public List<String> uriForms() {
        return uriForms.stream().map(UriForm::text).toList();
    }
}
