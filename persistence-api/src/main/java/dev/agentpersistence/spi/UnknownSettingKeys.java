package dev.agentpersistence.spi;

import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.settings.SettingDeclarations;
import dev.agentpersistence.settings.SettingKeys;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns, at each discovery, about {@code agent.persistence.*} keys of its configuration that no setting declares — a
 * mistyped key is otherwise silently ignored — naming the nearest declared key.
 *
 * <p>The declared keys are {@value ProviderConfig#PROVIDER}, every discovered factory's
 * {@link PersistenceStorageProviderFactory#settings()}, and the settings of every {@link SettingDeclarations} found
 * through {@link ServiceLoader} (the ones every provider shares, retention's, the Spring Boot starter's). When the
 * factory to be used is already known and declares every given key, nothing else is listed: the other factories'
 * declarations are read only when a key remains that the chosen one does not declare, and then the warnings are the
 * same as if all had been read from the start.
 */
final class UnknownSettingKeys {

    /** Keys under it name the endpoints of this project's own tests ({@code AGENT_PERSISTENCE_TEST_*}), no setting. */
    static final String TEST_ENDPOINTS = SettingKeys.PREFIX + "test.";

    private UnknownSettingKeys() {}

    /**
     * Logs one WARN for each key of {@code config} that no known setting declares; {@code chosen} is the factory that
     * will create the provider, when discovery already knows it.
     */
    static void report(
            ProviderConfig config,
            List<PersistenceStorageProviderFactory> factories,
            Optional<PersistenceStorageProviderFactory> chosen,
            ClassLoader classLoader) {
        for (String warning : warnings(config, factories, chosen, classLoader)) {
            log().warn(warning);
        }
    }

    /** The warnings {@link #report} logs when no factory is chosen yet. */
    static List<String> warnings(
            ProviderConfig config, List<PersistenceStorageProviderFactory> factories, ClassLoader classLoader) {
        return warnings(config, factories, Optional.empty(), classLoader);
    }

    /** The warnings {@link #report} logs. */
    static List<String> warnings(
            ProviderConfig config,
            List<PersistenceStorageProviderFactory> factories,
            Optional<PersistenceStorageProviderFactory> chosen,
            ClassLoader classLoader) {
        var unknown = new ArrayList<String>();
        List<Map.Entry<String, String>> candidates = candidates(config);
        if (candidates.isEmpty()) {
            return unknown;
        }
        if (chosen.isPresent()) {
            Map<String, String> declaredByChosen = known(List.of(chosen.get()), List.of());
            if (candidates.stream().allMatch(key -> declaredByChosen.containsKey(key.getKey()))) {
                return unknown;
            }
        }
        Map<String, String> known = known(factories, declaredElsewhere(classLoader));
        for (var candidate : candidates) {
            String normalized = candidate.getKey();
            String original = candidate.getValue();
            if (known.containsKey(normalized)) {
                continue;
            }
            String hint = NearestName.of(normalized, known.keySet())
                    .map(near -> "did you mean " + known.get(near) + "?")
                    .orElse("no known setting is close to it");
            unknown.add("Unknown setting '" + original + "' is ignored: " + hint);
        }
        return unknown;
    }

    /** The given keys under {@code agent.persistence.} but not the tests' ones (normalized → as given), in order. */
    private static List<Map.Entry<String, String>> candidates(ProviderConfig config) {
        String prefix = ProviderConfig.normalize(SettingKeys.PREFIX);
        String tests = ProviderConfig.normalize(TEST_ENDPOINTS);
        var candidates = new ArrayList<Map.Entry<String, String>>();
        config.givenKeys().forEach((normalized, original) -> {
            if (normalized.startsWith(prefix) && !normalized.startsWith(tests)) {
                candidates.add(Map.entry(normalized, original));
            }
        });
        return candidates;
    }

    /** Normalized key → declared key of {@value ProviderConfig#PROVIDER}, the factories' and the other settings. */
    private static Map<String, String> known(
            List<PersistenceStorageProviderFactory> factories, List<Setting<?>> declaredElsewhere) {
        var keys = new LinkedHashMap<String, String>();
        keys.put(ProviderConfig.normalize(ProviderConfig.PROVIDER), ProviderConfig.PROVIDER);
        for (var factory : factories) {
            try {
                factory.settings().forEach(s -> keys.put(ProviderConfig.normalize(s.key()), s.key()));
            } catch (RuntimeException | LinkageError e) {
                log().debug("The settings of factory {} could not be listed: {}", factory.name(), e.toString());
            }
        }
        for (Setting<?> setting : declaredElsewhere) {
            keys.put(ProviderConfig.normalize(setting.key()), setting.key());
        }
        return keys;
    }

    /** The settings of every {@link SettingDeclarations} that loads; a broken one is logged at DEBUG and skipped. */
    private static List<Setting<?>> declaredElsewhere(ClassLoader classLoader) {
        var settings = new ArrayList<Setting<?>>();
        Iterator<SettingDeclarations> found =
                ServiceLoader.load(SettingDeclarations.class, classLoader).iterator();
        while (true) {
            try {
                if (!found.hasNext()) {
                    return settings;
                }
                settings.addAll(found.next().settings());
            } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
                log().debug("Skipping setting declarations that failed to load: {}", e.toString());
            }
        }
    }

    /** Looked up when a line is logged: binding SLF4J takes a fresh JVM tens of milliseconds; most runs log nothing. */
    private static Logger log() {
        return LoggerFactory.getLogger(PersistenceStorageProviders.class);
    }
}
