package dev.agentpersistence.spi;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.ProviderNotFoundException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds storage providers on the class path through {@link ServiceLoader}.
 *
 * <p>Selection: the name in {@value ProviderConfig#PROVIDER} wins ({@code none} selects
 * {@link NoPersistenceStorageProvider}); otherwise the only factory found is used; several and no choice is an error
 * naming them; none gives {@link NoPersistenceStorageProvider} with one WARN line (and, when SLF4J has no binding, one
 * line on standard error, once per JVM; an explicit {@code none} is silent). A factory that fails to load is logged and
 * skipped, never hiding the others. An {@code agent.persistence.*} key that no setting declares is reported once with a
 * WARN naming the nearest declared key, and a provider name that no factory has names the nearest one.
 *
 * <p>A factory hands out the provider as its builder would with the same settings: every built-in one is a
 * {@link dev.agentpersistence.storage.StorageShell} over its backend, which reads every stored form and writes the one
 * the {@code agent.persistence.*} settings choose.
 */
public final class PersistenceStorageProviders {
    /** The name that selects {@link NoPersistenceStorageProvider} explicitly. */
    public static final String NONE = "none";

    private PersistenceStorageProviders() {}

    /** The provider chosen by {@link ProviderConfig#fromEnvironment()}. */
    public static PersistenceStorageProvider<CheckpointFilter> load() {
        return load(ProviderConfig.fromEnvironment());
    }

    /** The provider chosen by {@code config} (see the class documentation for the rules). */
    public static PersistenceStorageProvider<CheckpointFilter> load(ProviderConfig config) {
        return load(config, defaultClassLoader());
    }

    /** As {@link #load(ProviderConfig)}, discovering through {@code classLoader}. */
    public static PersistenceStorageProvider<CheckpointFilter> load(ProviderConfig config, ClassLoader classLoader) {
        return load(config, classLoader, NoProviderNotice.DEFAULT);
    }

    /**
     * As {@link #load(ProviderConfig, ClassLoader)}, announcing a fallback to the no-op provider through
     * {@code notice}.
     */
    static PersistenceStorageProvider<CheckpointFilter> load(
            ProviderConfig config, ClassLoader classLoader, NoProviderNotice notice) {
        Objects.requireNonNull(config, "config");
        var explicit = config.get(ProviderConfig.PROVIDER).map(String::trim).filter(s -> !s.isEmpty());
        if (explicit.isPresent()) {
            return load(explicit.get(), config, classLoader);
        }
        var factories = available(classLoader);
        UnknownSettingKeys.report(
                config,
                factories,
                factories.size() == 1 ? Optional.of(factories.get(0)) : Optional.empty(),
                classLoader);
        if (factories.isEmpty()) {
            notice.noProviderFound();
            return new NoPersistenceStorageProvider();
        }
        if (factories.size() > 1) {
            throw new ProviderNotFoundException("Several storage providers found on the class path: "
                    + names(factories) + ". Choose one with " + ProviderConfig.PROVIDER + "=<name> (environment "
                    + ProviderConfig.environmentName(ProviderConfig.PROVIDER) + ").");
        }
        return create(factories.get(0), config);
    }

    /** The provider named {@code name}, created from {@code config}. */
    public static PersistenceStorageProvider<CheckpointFilter> load(String name, ProviderConfig config) {
        return load(name, config, defaultClassLoader());
    }

    /** As {@link #load(String, ProviderConfig)}, discovering through {@code classLoader}. */
    public static PersistenceStorageProvider<CheckpointFilter> load(
            String name, ProviderConfig config, ClassLoader classLoader) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(config, "config");
        if (name.trim().equalsIgnoreCase(NONE)) {
            return new NoPersistenceStorageProvider();
        }
        var factories = available(classLoader);
        Optional<PersistenceStorageProviderFactory> chosen = named(factories, name.trim());
        UnknownSettingKeys.report(config, factories, chosen, classLoader);
        if (chosen.isPresent()) {
            return create(chosen.get(), config);
        }
        var nearest = NearestName.of(
                name.trim(),
                factories.stream().map(PersistenceStorageProviderFactory::name).toList());
        throw new ProviderNotFoundException("No storage provider named '" + name + "' on the class path"
                + nearest.map(n -> " (did you mean '" + n + "'?)").orElse("") + "; found "
                + (factories.isEmpty() ? "none" : names(factories))
                + ". Add the module that provides it (for example persistence-" + name.toLowerCase(Locale.ROOT) + ")"
                + nearest.map(n -> " or set " + ProviderConfig.PROVIDER + "=" + n)
                        .orElse("") + ".");
    }

    /** Every factory that loads, sorted by name. Broken ones are logged at WARN and left out. */
    public static List<PersistenceStorageProviderFactory> available() {
        return available(defaultClassLoader());
    }

    /** As {@link #available()}, discovering through {@code classLoader}. */
    public static List<PersistenceStorageProviderFactory> available(ClassLoader classLoader) {
        var found = new ArrayList<PersistenceStorageProviderFactory>();
        Iterator<PersistenceStorageProviderFactory> it = ServiceLoader.load(
                        PersistenceStorageProviderFactory.class, classLoader)
                .iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                found.add(it.next());
            } catch (ServiceConfigurationError | LinkageError e) {
                log().warn("Skipping a storage provider factory that failed to load: {}", e.toString());
            }
        }
        found.sort(Comparator.comparing(PersistenceStorageProviderFactory::name));
        return List.copyOf(found);
    }

    private static Optional<PersistenceStorageProviderFactory> named(
            List<PersistenceStorageProviderFactory> factories, String name) {
        for (var factory : factories) {
            if (factory.name().equalsIgnoreCase(name)) {
                return Optional.of(factory);
            }
        }
        return Optional.empty();
    }

    private static PersistenceStorageProvider<CheckpointFilter> create(
            PersistenceStorageProviderFactory factory, ProviderConfig config) {
        try {
            return Objects.requireNonNull(
                    factory.create(config), () -> factory.getClass().getName() + ".create returned null");
        } catch (PersistenceException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new PersistenceException(
                    "Storage provider '" + factory.name() + "' ("
                            + factory.getClass().getName() + ") could not be created from " + config + ": "
                            + e.getMessage(),
                    e);
        }
    }

    private static String names(List<PersistenceStorageProviderFactory> factories) {
        return factories.stream()
                .map(f -> f.name() + " (" + f.getClass().getName() + ")")
                .collect(Collectors.joining(", "));
    }

    private static ClassLoader defaultClassLoader() {
        var context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : PersistenceStorageProviders.class.getClassLoader();
    }

    /** Looked up when a line is logged: binding SLF4J takes a fresh JVM tens of milliseconds; most runs log nothing. */
    private static Logger log() {
        return LoggerFactory.getLogger(PersistenceStorageProviders.class);
    }
}
