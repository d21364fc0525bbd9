package dev.agentpersistence.settings;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * The values of a list of declared {@link Setting}s: those set, over each setting's default. A configuration class
 * keeps one and derives everything else from the declarations: reading from a {@link SettingSource}, checking builder
 * arguments, and a {@code toString} that never shows a secret.
 *
 * <pre>{@code
 * values = values.with(POOL_SIZE, 20);   // checked against the declaration
 * int size = values.get(POOL_SIZE);      // 20, or the default when never set
 * }</pre>
 *
 * Immutable and thread-safe.
 */
public final class SettingValues {
    private final List<Setting<?>> declared;
    private final Map<Setting<?>, Object> set;

    private SettingValues(List<Setting<?>> declared, Map<Setting<?>, Object> set) {
        this.declared = declared;
        this.set = set;
    }

    /** Every setting of {@code declared} at its default. */
    public static SettingValues defaults(List<Setting<?>> declared) {
        return new SettingValues(List.copyOf(declared), Map.of());
    }

    /**
     * The settings of {@code declared} that {@code config} sets, parsed and checked.
     *
     * @throws dev.agentpersistence.PersistenceException naming the key of a malformed value (never a secret's value)
     */
    public static SettingValues read(List<Setting<?>> declared, SettingSource config) {
        Objects.requireNonNull(config, "config");
        var values = defaults(declared);
        var found = new LinkedHashMap<Setting<?>, Object>();
        for (Setting<?> setting : values.declared) {
            setting.find(config).ifPresent(value -> found.put(setting, value));
        }
        return new SettingValues(values.declared, Map.copyOf(found));
    }

    /** The value set, else the default; {@code null} when neither exists. */
    @SuppressWarnings("unchecked")
    public <T> T get(Setting<T> setting) {
        Object value = set.get(declared(setting));
        return value != null ? (T) value : setting.defaultValue().orElse(null);
    }

    /** As {@link #get}, empty instead of {@code null}. */
    public <T> Optional<T> find(Setting<T> setting) {
        return Optional.ofNullable(get(setting));
    }

    /**
     * These values with {@code setting} set to {@code value}.
     *
     * @throws NullPointerException when {@code value} is null
     * @throws IllegalArgumentException when the value breaks the declaration (named by its key)
     */
    public <T> SettingValues with(Setting<T> setting, T value) {
        var copy = new LinkedHashMap<>(set);
        copy.put(declared(setting), setting.check(value));
        return new SettingValues(declared, Map.copyOf(copy));
    }

    /** These values with {@code setting} back at its default. */
    public SettingValues without(Setting<?> setting) {
        var copy = new LinkedHashMap<>(set);
        copy.remove(declared(setting));
        return new SettingValues(declared, Map.copyOf(copy));
    }

    private Setting<?> declared(Setting<?> setting) {
        if (!declared.contains(Objects.requireNonNull(setting, "setting"))) {
            throw new IllegalArgumentException(setting.key() + " is not one of these settings");
        }
        return setting;
    }

    /** {@code [key=value, …]} of every setting with a value; secrets as {@code ****}. */
    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public String toString() {
        var text = new StringJoiner(", ", "[", "]");
        for (Setting setting : declared) {
            Object value = get(setting);
            if (value != null) {
                text.add(setting.key() + "=" + setting.show(value));
            }
        }
        return text.toString();
    }
}
