package dev.agentpersistence.settings;

import dev.agentpersistence.StorageConfigurationException;
import dev.agentpersistence.redaction.Redactor;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * One setting, declared once: its key, type, default, bounds, whether it is a secret, and a one-line description.
 * Reading it from a {@link SettingSource} such as {@code ProviderConfig} (system properties over environment
 * variables), validating a builder argument, hiding secrets in messages, the settings tables of the READMEs and
 * framework configuration metadata all come from this declaration.
 *
 * <pre>{@code
 * public static final Setting<Integer> POOL_SIZE =
 *         Setting.integer("agent.persistence.jdbc.pool-size", 10, 1, 1_000, "Connections in the pool.");
 *
 * int size = POOL_SIZE.read(config);            // default when unset; a clear error when malformed
 * this.poolSize = POOL_SIZE.check(poolSize);    // a builder argument, IllegalArgumentException when out of bounds
 * }</pre>
 *
 * Immutable and thread-safe.
 *
 * @param <T> the value type
 */
public final class Setting<T> {
    private final String key;
    private final String type;
    private final T defaultValue;
    private final String description;
    private final boolean secret;
    private final boolean redacted;
    private final String expected;
    private final Function<String, T> parser;
    private final Function<T, String> problem;
    private final Function<T, String> formatter;

    private Setting(
            String key,
            String type,
            T defaultValue,
            String description,
            boolean secret,
            boolean redacted,
            String expected,
            Function<String, T> parser,
            Function<T, String> problem,
            Function<T, String> formatter) {
        if (!Objects.requireNonNull(key, "key").startsWith(SettingKeys.PREFIX)) {
            throw new IllegalArgumentException("setting keys start with " + SettingKeys.PREFIX + ": " + key);
        }
        this.key = key;
        this.type = type;
        this.defaultValue = defaultValue;
        this.description = Objects.requireNonNull(description, "description");
        this.secret = secret;
        this.redacted = redacted;
        this.expected = expected;
        this.parser = parser;
        this.problem = problem;
        this.formatter = formatter;
        if (defaultValue != null && problem.apply(defaultValue) != null) {
            throw new IllegalArgumentException("the default of " + key + " is out of its bounds: " + defaultValue);
        }
    }

    private static <T> Setting<T> plain(
            String key,
            String type,
            T defaultValue,
            String description,
            String expected,
            Function<String, T> parser,
            Function<T, String> problem,
            Function<T, String> formatter) {
        return new Setting<>(key, type, defaultValue, description, false, false, expected, parser, problem, formatter);
    }

    /** {@code true} or {@code false}; {@code defaultValue} may be null (no default). */
    public static Setting<Boolean> bool(String key, Boolean defaultValue, String description) {
        return plain(
                key,
                "boolean",
                defaultValue,
                description,
                "true or false",
                Setting::parseBoolean,
                v -> null,
                String::valueOf);
    }

    /** A whole number from {@code min} to {@code max}. */
    public static Setting<Integer> integer(String key, Integer defaultValue, int min, int max, String description) {
        return plain(
                key,
                "integer",
                defaultValue,
                description,
                bounds("an integer", min, max),
                s -> Integer.parseInt(s.strip()),
                v -> v < min || v > max ? bounds("an integer", min, max) : null,
                String::valueOf);
    }

    /** A whole number from {@code min} to {@code max}. */
    public static Setting<Long> longInteger(String key, Long defaultValue, long min, long max, String description) {
        return plain(
                key,
                "integer",
                defaultValue,
                description,
                bounds("an integer", min, max),
                s -> Long.parseLong(s.strip()),
                v -> v < min || v > max ? bounds("an integer", min, max) : null,
                String::valueOf);
    }

    /**
     * A size in bytes, written as a number of bytes or with a unit ({@code 512KiB}, {@code 16MiB}, {@code 1GiB};
     * {@code KB}, {@code MB}, {@code GB} are powers of 1000), at least {@code min}.
     */
    public static Setting<Long> size(String key, Long defaultValue, long min, String description) {
        String expected = "a size of at least " + Sizes.format(min) + " such as 1048576, 512KiB, 16MiB or 10MB";
        return plain(
                key,
                "size",
                defaultValue,
                description,
                expected,
                Sizes::parse,
                v -> v < min ? expected : null,
                Sizes::format);
    }

    /**
     * A duration, written as ISO-8601 ({@code PT30S}) or a number with a unit ({@code 500ms}, {@code 30s}, {@code 5m},
     * {@code 2h}, {@code 7d}); positive.
     */
    public static Setting<Duration> duration(String key, Duration defaultValue, String description) {
        String expected = "a positive duration such as 30s, 5m, 2h, 7d or PT30S";
        return plain(
                key,
                "duration",
                defaultValue,
                description,
                expected,
                Durations::parse,
                v -> v.isZero() || v.isNegative() ? expected : null,
                Durations::format);
    }

    /** As {@link #duration}, also accepting zero. */
    public static Setting<Duration> durationOrZero(String key, Duration defaultValue, String description) {
        String expected = "a duration of zero or more such as 0s, 30s, 5m, 2h, 7d or PT30S";
        return plain(
                key,
                "duration",
                defaultValue,
                description,
                expected,
                Durations::parse,
                v -> v.isNegative() ? expected : null,
                Durations::format);
    }

    /** A comma-separated list of positive integers (possibly empty). */
    public static Setting<List<Integer>> integers(String key, List<Integer> defaultValue, String description) {
        String expected = "a comma-separated list of positive integers";
        return plain(
                key,
                "list of integers",
                defaultValue == null ? null : List.copyOf(defaultValue),
                description,
                expected,
                Setting::parseIntegers,
                v -> v.stream().allMatch(i -> i != null && i > 0) ? null : expected,
                v -> String.join(",", v.stream().map(String::valueOf).toList()));
    }

    /** A comma-separated list of non-blank texts, each stripped (possibly empty). */
    public static Setting<List<String>> texts(String key, String description) {
        return plain(
                key,
                "list of strings",
                null,
                description,
                "a comma-separated list",
                Setting::parseTexts,
                v -> v.stream().allMatch(t -> t != null && !t.isBlank()) ? null : "a list of non-blank texts",
                v -> String.join(",", v));
    }

    /** Free text, not blank. */
    public static Setting<String> text(String key, String defaultValue, String description) {
        return plain(
                key,
                "string",
                defaultValue,
                description,
                "a non-blank text",
                String::strip,
                v -> v.isBlank() ? "a non-blank text" : null,
                v -> v);
    }

    /** One of {@code choices} (compared ignoring case; the value read is the choice as declared). */
    public static Setting<String> choice(String key, String defaultValue, List<String> choices, String description) {
        List<String> allowed = List.copyOf(choices);
        String expected = "one of " + String.join(", ", allowed);
        return plain(
                key,
                String.join("|", allowed),
                defaultValue,
                description,
                expected,
                s -> allowed.stream()
                        .filter(c -> c.equalsIgnoreCase(s.strip()))
                        .findFirst()
                        .orElseThrow(() -> new IllegalArgumentException(s)),
                v -> allowed.contains(v) ? null : expected,
                v -> v);
    }

    /** A setting of another type, parsed by {@code parser} (throwing {@link IllegalArgumentException}). */
    public static <T> Setting<T> custom(
            String key,
            String type,
            T defaultValue,
            String expected,
            Function<String, T> parser,
            Function<T, String> formatter,
            String description) {
        return plain(key, type, defaultValue, description, expected, parser, v -> null, formatter);
    }

    /** This setting with its value never shown: not in messages, {@code toString} or documentation. */
    public Setting<T> secret() {
        return new Setting<>(key, type, defaultValue, description, true, false, expected, parser, problem, formatter);
    }

    /**
     * This setting with credentials inside its value hidden wherever it is shown: the user information of a URI
     * ({@code redis://user:****@host}) and every parameter whose name contains password, secret, token or key
     * ({@code sslpassword=****}); see {@link Redactor#redactText(String)}.
     */
    public Setting<T> redacted() {
        return new Setting<>(key, type, defaultValue, description, secret, true, expected, parser, problem, formatter);
    }

    /**
     * This setting with one more rule. {@code rule} returns what a value must be, for the message ({@code "1 to 32
     * lower-case letters"}), or {@code null} when the value is fine.
     */
    public Setting<T> checkedBy(Function<T, String> rule) {
        Objects.requireNonNull(rule, "rule");
        Function<T, String> both = value -> {
            String wrong = problem.apply(value);
            return wrong != null ? wrong : rule.apply(value);
        };
        return new Setting<>(key, type, defaultValue, description, secret, redacted, expected, parser, both, formatter);
    }

    /** The key, {@code agent.persistence.…}. */
    public String key() {
        return key;
    }

    /** The environment variable that sets it: upper case, dots and dashes as underscores. */
    public String environmentName() {
        return SettingKeys.environmentName(key);
    }

    /**
     * The type as documented: {@code boolean}, {@code integer}, {@code size}, {@code duration}, {@code string}, or the
     * choices.
     */
    public String type() {
        return type;
    }

    /** The default, when there is one. */
    public Optional<T> defaultValue() {
        return Optional.ofNullable(defaultValue);
    }

    /** The default as it would be written in a property, or empty. */
    public Optional<String> defaultText() {
        return defaultValue().map(formatter);
    }

    /** The one-line description. */
    public String description() {
        return description;
    }

    /** Whether the value is a secret. */
    public boolean isSecret() {
        return secret;
    }

    /**
     * The value set in {@code config}, parsed and checked, or empty when it is unset or blank.
     *
     * @throws StorageConfigurationException naming the key, its environment variable, the value (hidden when the
     *     setting is a secret, credentials hidden when it is redacted) and the accepted form
     */
    public Optional<T> find(SettingSource config) {
        Objects.requireNonNull(config, "config");
        Optional<String> raw = config.get(key).filter(v -> !v.isBlank());
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        T value;
        try {
            value = parser.apply(raw.get().strip());
        } catch (RuntimeException e) {
            throw invalid(raw.get(), expected);
        }
        String wrong = problem.apply(value);
        if (wrong != null) {
            throw invalid(raw.get(), wrong);
        }
        return Optional.of(value);
    }

    /**
     * The value set in {@code config}, or the default.
     *
     * @throws StorageConfigurationException when the value is malformed, or unset without a default
     */
    public T read(SettingSource config) {
        return find(config)
                .or(this::defaultValue)
                .orElseThrow(() ->
                        new StorageConfigurationException("Missing required setting '" + key + "' (system property -D"
                                + key + "=… or environment variable " + environmentName() + "): " + description));
    }

    /**
     * Checks a value given in code (a builder argument).
     *
     * @throws NullPointerException when {@code value} is null
     * @throws IllegalArgumentException naming the key and what is expected
     */
    public T check(T value) {
        Objects.requireNonNull(value, key);
        String wrong = problem.apply(value);
        if (wrong != null) {
            throw new IllegalArgumentException(key + " must be " + wrong + " but was "
                    + (secret ? "(secret, not shown)" : "'" + show(value) + "'"));
        }
        return value;
    }

    /**
     * {@code value} as it would be written in a property, {@code ****} for a secret, passwords hidden when redacted.
     */
    public String show(T value) {
        if (value == null) {
            return "unset";
        }
        return secret ? "****" : redacted ? Redactor.redactText(formatter.apply(value)) : formatter.apply(value);
    }

    @Override
    public String toString() {
        return "Setting[" + key + ", " + type
                + defaultText().map(d -> ", default " + (secret ? "****" : d)).orElse("") + "]";
    }

    private StorageConfigurationException invalid(String raw, String wanted) {
        String shown =
                secret ? "a value that is not shown (secret)" : "'" + (redacted ? Redactor.redactText(raw) : raw) + "'";
        return new StorageConfigurationException("Setting '" + key + "' (environment " + environmentName()
                + ") must be " + wanted + " but was " + shown);
    }

    private static String bounds(String what, long min, long max) {
        if (max == Long.MAX_VALUE || max == Integer.MAX_VALUE) {
            return what + " of at least " + min;
        }
        return what + " from " + min + " to " + max;
    }

    private static List<Integer> parseIntegers(String text) {
        return java.util.Arrays.stream(text.split(","))
                .filter(part -> !part.isBlank())
                .map(part -> Integer.parseInt(part.strip()))
                .toList();
    }

    private static List<String> parseTexts(String text) {
        return java.util.Arrays.stream(text.split(","))
                .map(String::strip)
                .filter(t -> !t.isEmpty())
                .toList();
    }

    private static boolean parseBoolean(String text) {
        String s = text.strip().toLowerCase(Locale.ROOT);
        if (s.equals("true")) {
            return true;
        }
        if (s.equals("false")) {
            return false;
        }
        throw new IllegalArgumentException(text);
    }
}
