package dev.agentpersistence.spi;

import dev.agentpersistence.redaction.Redactor;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.settings.SettingKeys;
import dev.agentpersistence.settings.SettingSource;
import io.micrometer.observation.ObservationRegistry;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Immutable string settings for storage providers, keyed like {@code agent.persistence.jdbc.url}.
 *
 * <p>Keys are matched loosely: case, dots, dashes and underscores are equivalent, so the environment variable
 * {@code AGENT_PERSISTENCE_JDBC_POOL_SIZE} answers the key {@code agent.persistence.jdbc.pool-size}.
 * {@link #toString()} hides passwords and secrets. Values are parsed and checked by the {@link Setting} that declares
 * their key.
 *
 * <p>Beside the settings it carries the {@link ObservationRegistry} the provider reports its operations to
 * ({@link #withObservations}); without one the provider is not observed. Equality compares the settings only.
 */
public final class ProviderConfig implements SettingSource {
    /** The key that chooses a provider by its factory name. */
    public static final String PROVIDER = "agent.persistence.provider";
    /** Prefix of every key this library reads. */
    public static final String PREFIX = SettingKeys.PREFIX;

    private static final String ENV_PREFIX = "AGENT_PERSISTENCE_";
    private static final Pattern SECRET_KEY =
            Pattern.compile(".*(password|secret|token|credential|key\\.id|access\\.key|encryption\\.keys).*");

    private static final ProviderConfig EMPTY = new ProviderConfig(Map.of(), ObservationRegistry.NOOP);

    /** Normalized key → entry holding the original key and the value. */
    private final Map<String, Map.Entry<String, String>> entries;

    private final ObservationRegistry observations;

    private ProviderConfig(Map<String, Map.Entry<String, String>> entries, ObservationRegistry observations) {
        this.entries = entries;
        this.observations = observations;
    }

    /** No settings: every provider uses its defaults. */
    public static ProviderConfig empty() {
        return EMPTY;
    }

    /** Settings from a map; later keys that normalize to the same name win. */
    public static ProviderConfig of(Map<String, String> settings) {
        Objects.requireNonNull(settings, "settings");
        var entries = new LinkedHashMap<String, Map.Entry<String, String>>();
        settings.forEach((key, value) -> entries.put(
                normalize(Objects.requireNonNull(key, "key")),
                Map.entry(key, Objects.requireNonNull(value, () -> "value of " + key))));
        return new ProviderConfig(Collections.unmodifiableMap(entries), ObservationRegistry.NOOP);
    }

    /** System properties {@code agent.persistence.*} over environment variables {@code AGENT_PERSISTENCE_*}. */
    public static ProviderConfig fromEnvironment() {
        return fromEnvironment(System.getenv(), System.getProperties());
    }

    /** As {@link #fromEnvironment()}, from the given sources (for tests and embedding). */
    public static ProviderConfig fromEnvironment(Map<String, String> environment, Properties systemProperties) {
        var settings = new LinkedHashMap<String, String>();
        new TreeMap<>(environment).forEach((key, value) -> {
            if (key.startsWith(ENV_PREFIX)) {
                settings.put(key, value);
            }
        });
        for (String name : new java.util.TreeSet<>(systemProperties.stringPropertyNames())) {
            if (name.startsWith(PREFIX)) {
                settings.put(name, systemProperties.getProperty(name));
            }
        }
        return of(settings);
    }

    /** A copy with one more setting. */
    public ProviderConfig with(String key, String value) {
        var copy = new LinkedHashMap<>(entries);
        copy.put(normalize(Objects.requireNonNull(key, "key")), Map.entry(key, Objects.requireNonNull(value, "value")));
        return new ProviderConfig(Collections.unmodifiableMap(copy), observations);
    }

    /** A copy whose provider reports its operations to {@code observations}. */
    public ProviderConfig withObservations(ObservationRegistry observations) {
        return new ProviderConfig(entries, Objects.requireNonNull(observations, "observations"));
    }

    /**
     * The registry the created provider reports to; {@link ObservationRegistry#NOOP} unless {@link #withObservations}
     * set one.
     */
    public ObservationRegistry observations() {
        return observations;
    }

    /** The value of {@code key}, if set. */
    @Override
    public Optional<String> get(String key) {
        var entry = entries.get(normalize(key));
        return entry == null ? Optional.empty() : Optional.of(entry.getValue());
    }

    /** The value of {@code key}, or {@code defaultValue}. */
    public String get(String key, String defaultValue) {
        return get(key).orElse(defaultValue);
    }

    /**
     * The environment variable that sets {@code key}: {@code agent.persistence.jdbc.url} →
     * {@code AGENT_PERSISTENCE_JDBC_URL}.
     */
    public static String environmentName(String key) {
        return SettingKeys.environmentName(key);
    }

    /**
     * {@code text} with credentials replaced by {@code ****}: the user information of any
     * {@code scheme://user:password@host} (everything before the last {@code @} of the authority), and the value of
     * every query or {@code ;name=value} parameter whose name contains password, secret, token or key; see
     * {@link Redactor#redactText(String)}.
     */
    public static String redact(String text) {
        return Redactor.redactText(text);
    }

    /** The settings as given, secrets hidden. */
    @Override
    public String toString() {
        var shown = new TreeMap<String, String>();
        entries.forEach((normalized, entry) -> shown.put(
                entry.getKey(), SECRET_KEY.matcher(normalized).matches() ? "****" : redact(entry.getValue())));
        return "ProviderConfig" + shown;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ProviderConfig that && toMap().equals(that.toMap());
    }

    @Override
    public int hashCode() {
        return toMap().hashCode();
    }

    private Map<String, String> toMap() {
        var map = new TreeMap<String, String>();
        entries.forEach((normalized, entry) -> map.put(normalized, entry.getValue()));
        return map;
    }

    /** Normalized key ({@link #normalize}) → the key as given, for every setting. */
    Map<String, String> givenKeys() {
        var keys = new LinkedHashMap<String, String>();
        entries.forEach((normalized, entry) -> keys.put(normalized, entry.getKey()));
        return keys;
    }

    /** {@code key} lower case with dashes and underscores as dots: the form keys are compared in. */
    static String normalize(String key) {
        return key.toLowerCase(Locale.ROOT).replace('_', '.').replace('-', '.');
    }
}
