package dev.agentpersistence.spi;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/**
 * A store named by one string, turned into the provider settings {@link PersistenceStorageProviders} reads. The
 * provider is always named explicitly ({@value ProviderConfig#PROVIDER}), so the string decides even when several
 * providers are on the class path. The demo's {@code --storage} option and the command line both take these forms.
 *
 * <table>
 *   <caption>Accepted forms</caption>
 *   <tr><td>{@code jdbc:<any JDBC URL>}</td><td>{@code jdbc} provider, e.g. {@code jdbc:sqlite:demo.db},
 *       {@code jdbc:postgresql://127.0.0.1:5432/test?user=postgres},
 *       {@code jdbc:mariadb://127.0.0.1:3306/test?user=root}</td></tr>
 *   <tr><td>{@code file:<directory>}</td><td>{@code file} provider, one directory per agent</td></tr>
 *   <tr><td>{@code redis://host:port[/db]}, {@code rediss://…}</td><td>{@code redis} provider</td></tr>
 *   <tr><td>{@code s3://bucket[/prefix][?endpoint=…&region=…&path-style=true]}</td><td>{@code s3} provider;
 *       query parameters become {@code agent.persistence.s3.*} settings</td></tr>
 *   <tr><td>a provider name</td><td>that provider with the base settings only</td></tr>
 * </table>
 *
 * Other settings (a JDBC password, S3 credentials, encryption keys) come from the base settings, usually
 * {@link ProviderConfig#fromEnvironment()}. The {@link #description()} never holds a password.
 *
 * @param provider the provider name
 * @param config the settings, the provider name included
 * @param description where checkpoints are, passwords hidden
 */
public record StorageUri(String provider, ProviderConfig config, String description) {

    /** What {@link #parse} accepts, for error messages. */
    public static final String FORMS =
            "jdbc:<url>, file:<dir>, redis://host:port, s3://bucket[/prefix] or a provider name";

    public StorageUri {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(description, "description");
    }

    /** An embedded SQLite database in {@code file} (its directory is created when opened). */
    public static StorageUri sqlite(Path file) {
        Objects.requireNonNull(file, "file");
        return parse("jdbc:sqlite:" + file.toAbsolutePath().normalize(), ProviderConfig.empty());
    }

    /** Parses {@code spec} over settings from the environment. */
    public static StorageUri parse(String spec) {
        return parse(spec, ProviderConfig.fromEnvironment());
    }

    /**
     * Parses {@code spec} over {@code base} settings.
     *
     * @throws IllegalArgumentException when {@code spec} has none of the accepted forms
     */
    public static StorageUri parse(String spec, ProviderConfig base) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(base, "base");
        String value = spec.strip();
        String lower = value.toLowerCase(Locale.ROOT);
        if (lower.startsWith("jdbc:")) {
            return select("jdbc", base.with("agent.persistence.jdbc.url", value), ProviderConfig.redact(value));
        }
        if (lower.startsWith("file:")) {
            Path dir = directory(value, "file:");
            return select("file", base.with("agent.persistence.file.dir", dir.toString()), "file:" + dir);
        }
        if (lower.startsWith("redis://") || lower.startsWith("rediss://")) {
            return select("redis", base.with("agent.persistence.redis.uri", value), ProviderConfig.redact(value));
        }
        if (lower.startsWith("s3://")) {
            return s3(value, base);
        }
        if (value.matches("[a-z0-9-]+")) {
            return select(value, base, value + " (settings from the environment)");
        }
        throw new IllegalArgumentException("unknown storage '" + ProviderConfig.redact(spec) + "': use " + FORMS);
    }

    /**
     * The directory named after {@code scheme} in {@code value} ({@code scheme:relative/dir}, {@code scheme:/abs/dir}
     * or {@code scheme:///abs/dir}), absolute and normalized; for stores kept in a directory, including custom
     * providers' own schemes.
     *
     * @throws IllegalArgumentException when no directory follows the scheme
     */
    public static Path directory(String value, String scheme) {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(scheme, "scheme");
        String rest = value.strip().substring(scheme.length());
        if (rest.startsWith("//")) {
            return Path.of(URI.create("file:" + rest));
        }
        if (rest.isBlank()) {
            throw new IllegalArgumentException(scheme + " needs a path, e.g. " + scheme + "target/checkpoints");
        }
        return Path.of(rest).toAbsolutePath().normalize();
    }

    /** The same store with {@code provider} named explicitly in its settings; for custom schemes. */
    public static StorageUri select(String provider, ProviderConfig config, String description) {
        Objects.requireNonNull(config, "config");
        return new StorageUri(provider, config.with(ProviderConfig.PROVIDER, provider), description);
    }

    /** Opens the provider (the JDBC provider creates the folder of a SQLite database file). Close it when done. */
    public PersistenceStorageProvider<CheckpointFilter> open() {
        return PersistenceStorageProviders.load(config);
    }

    @Override
    public String toString() {
        return provider + " (" + description + ")";
    }

    private static StorageUri s3(String value, ProviderConfig base) {
        URI uri = URI.create(value);
        String bucket = uri.getHost();
        if (bucket == null || bucket.isBlank()) {
            throw new IllegalArgumentException("s3 storage needs a bucket: s3://bucket[/prefix]");
        }
        ProviderConfig config = base.with("agent.persistence.s3.bucket", bucket);
        String prefix = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
        if (!prefix.isEmpty()) {
            config = config.with("agent.persistence.s3.prefix", prefix);
        }
        if (uri.getRawQuery() != null) {
            for (String pair : uri.getRawQuery().split("&")) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("s3 option '" + pair + "' is not key=value");
                }
                config = config.with(
                        "agent.persistence.s3." + decode(pair.substring(0, eq)), decode(pair.substring(eq + 1)));
            }
        }
        return select("s3", config, "s3://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix));
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }
}
