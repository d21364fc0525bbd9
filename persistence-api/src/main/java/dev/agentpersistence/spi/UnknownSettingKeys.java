package dev.agentpersistence.spi;

import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.settings.SettingKeys;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns, once per key and JVM, about {@code agent.persistence.*} keys of a discovery configuration that no setting
 * declares — a mistyped key is otherwise silently ignored — naming the nearest declared key.
 *
 * <p>The declared keys are {@value ProviderConfig#PROVIDER}, every discovered factory's
 * {@link PersistenceStorageProviderFactory#settings()}, and the {@code SETTINGS} lists of the holders named in
 * {@link #SHARED_HOLDERS} when they are on the class path: the settings every provider shares (the storage shell's, in
 * a package that depends on this one, so it is looked up by name) and those of the Spring Boot integration.
 */
final class UnknownSettingKeys {
    private static final Logger LOG = LoggerFactory.getLogger(PersistenceStorageProviders.class);

    /** Classes with a {@code public static final List<Setting<?>> SETTINGS} of keys no factory declares. */
    static final List<String> SHARED_HOLDERS = List.of(
            "dev.agentpersistence.storage.StorageSettings",
            "dev.agentpersistence.spring.boot.autoconfigure.StarterSettings");

    /** Keys under it name the endpoints of this project's own tests ({@code AGENT_PERSISTENCE_TEST_*}), no setting. */
    static final String TEST_ENDPOINTS = SettingKeys.PREFIX + "test.";

    private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();

    private UnknownSettingKeys() {}

    /** Logs one WARN for each key of {@code config} not reported before that no known setting declares. */
    static void report(
            ProviderConfig config, List<PersistenceStorageProviderFactory> factories, ClassLoader classLoader) {
        for (String warning : warnings(config, factories, classLoader)) {
            LOG.warn(warning);
        }
    }

    /** The warnings {@link #report} would log now (each key at most once per JVM), marking them reported. */
    static List<String> warnings(
            ProviderConfig config, List<PersistenceStorageProviderFactory> factories, ClassLoader classLoader) {
        var unknown = new ArrayList<String>();
        Map<String, String> given = config.givenKeys();
        if (given.isEmpty()) {
            return unknown;
        }
        Map<String, String> known = known(factories, classLoader);
        String prefix = ProviderConfig.normalize(SettingKeys.PREFIX);
        String tests = ProviderConfig.normalize(TEST_ENDPOINTS);
        given.forEach((normalized, original) -> {
            if (!normalized.startsWith(prefix)
                    || normalized.startsWith(tests)
                    || known.containsKey(normalized)
                    || !REPORTED.add(normalized)) {
                return;
            }
            String hint = NearestName.of(normalized, known.keySet())
                    .map(near -> "did you mean " + known.get(near) + "?")
                    .orElse("no known setting is close to it");
            unknown.add("Unknown setting '" + original + "' is ignored: " + hint);
        });
        return unknown;
    }

    /** Normalized key → declared key of every known setting. */
    private static Map<String, String> known(
            List<PersistenceStorageProviderFactory> factories, ClassLoader classLoader) {
        var keys = new LinkedHashMap<String, String>();
        keys.put(ProviderConfig.normalize(ProviderConfig.PROVIDER), ProviderConfig.PROVIDER);
        for (var factory : factories) {
            try {
                factory.settings().forEach(s -> keys.put(ProviderConfig.normalize(s.key()), s.key()));
            } catch (RuntimeException | LinkageError e) {
                LOG.debug("The settings of factory {} could not be listed: {}", factory.name(), e.toString());
            }
        }
        for (String holder : SHARED_HOLDERS) {
            sharedSettings(holder, classLoader).forEach(s -> keys.put(ProviderConfig.normalize(s.key()), s.key()));
        }
        return keys;
    }

    private static List<Setting<?>> sharedSettings(String holder, ClassLoader classLoader) {
        for (ClassLoader loader : new ClassLoader[] {classLoader, UnknownSettingKeys.class.getClassLoader()}) {
            try {
                Field field = Class.forName(holder, true, loader).getField("SETTINGS");
                if (Modifier.isStatic(field.getModifiers()) && field.get(null) instanceof List<?> list) {
                    var settings = new ArrayList<Setting<?>>();
                    for (Object item : list) {
                        if (item instanceof Setting<?> setting) {
                            settings.add(setting);
                        }
                    }
                    return settings;
                }
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                // not on this class path
            }
        }
        return List.of();
    }
}
