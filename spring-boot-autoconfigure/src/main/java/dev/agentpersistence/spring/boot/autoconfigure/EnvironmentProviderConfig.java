package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageSettings;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import org.springframework.boot.context.properties.bind.BindResult;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Reads the {@code agent.persistence.*} settings from a Spring {@link Environment} into a {@link ProviderConfig}. The
 * keys are those the library declares ({@link Setting}s of every provider factory on the class path,
 * {@link StorageSettings#SETTINGS}, {@link StarterSettings#SETTINGS}, which holds {@value ProviderConfig#PROVIDER}), so
 * there is no second list of keys to keep in step.
 *
 * <p>Each key is bound with Spring's relaxed names ({@code table-prefix}, {@code tablePrefix},
 * {@code AGENT_PERSISTENCE_JDBC_TABLEPREFIX}), then, when unset, looked up under the library's own environment variable
 * name ({@code AGENT_PERSISTENCE_JDBC_TABLE_PREFIX}). A list setting may be written as a YAML list or as
 * comma-separated text.
 */
public final class EnvironmentProviderConfig {
    private static final String LIST_TYPE = "list";

    private EnvironmentProviderConfig() {}

    /** The settings of {@code environment}, for the factories {@code classLoader} discovers. */
    public static ProviderConfig from(Environment environment, ClassLoader classLoader) {
        Binder binder = Binder.get(environment);
        var values = new LinkedHashMap<String, String>();
        for (Setting<?> setting : settings(classLoader)) {
            boolean list = setting.type().startsWith(LIST_TYPE);
            read(binder, environment, setting.key(), list).ifPresent(v -> values.put(setting.key(), v));
        }
        return ProviderConfig.of(values);
    }

    /** Every declared setting: the shared ones, this module's, then each discovered factory's. */
    static Set<Setting<?>> settings(ClassLoader classLoader) {
        var all = new LinkedHashSet<Setting<?>>(StorageSettings.SETTINGS);
        all.addAll(StarterSettings.SETTINGS);
        for (PersistenceStorageProviderFactory factory : PersistenceStorageProviders.available(classLoader)) {
            all.addAll(factory.settings());
        }
        return all;
    }

    private static Optional<String> read(Binder binder, Environment environment, String key, boolean list) {
        BindResult<String> bound = list
                ? binder.bind(key, Bindable.listOf(String.class)).map(values -> String.join(",", values))
                : binder.bind(key, Bindable.of(String.class));
        return Optional.ofNullable(bound.orElse(null))
                .or(() -> Optional.ofNullable(environment.getProperty(ProviderConfig.environmentName(key))));
    }
}
