package dev.agentpersistence.examples;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/**
 * A storage backend chosen with one string, as the examples' {@code --storage} option takes it, turned
 * into the provider settings {@link PersistenceStorageProviders} reads. The provider is always named
 * explicitly ({@value ProviderConfig#PROVIDER}), since the examples have every provider on the class path.
 *
 * <table>
 *   <caption>Accepted forms</caption>
 *   <tr><td>{@code jdbc:<any JDBC URL>}</td><td>{@code jdbc} provider, e.g. {@code jdbc:sqlite:demo.db},
 *       {@code jdbc:postgresql://127.0.0.1:5432/test?user=postgres}, {@code jdbc:mariadb://127.0.0.1:3306/test?user=root}</td></tr>
 *   <tr><td>{@code file:<directory>}</td><td>{@code file} provider, one directory per agent</td></tr>
 *   <tr><td>{@code redis://host:port[/db]}, {@code rediss://…}</td><td>{@code redis} provider</td></tr>
 *   <tr><td>{@code s3://bucket[/prefix][?endpoint=…&region=…&path-style=true]}</td><td>{@code s3} provider;
 *       query parameters become {@code agent.persistence.s3.*} settings</td></tr>
 *   <tr><td>{@code jsonl:<dir>}</td><td>the examples' custom JSON Lines backend</td></tr>
 *   <tr><td>a provider name</td><td>that provider with settings from the environment only</td></tr>
 * </table>
 * Other settings (a JDBC password, S3 credentials) come from {@code agent.persistence.*} system
 * properties and {@code AGENT_PERSISTENCE_*} environment variables.
 *
 * @param provider    the provider name
 * @param config      the settings, the provider name included
 * @param description where checkpoints go, passwords hidden
 */
public record StorageSelection(String provider, ProviderConfig config, String description) {

    public StorageSelection {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(description, "description");
    }

    /** An embedded SQLite database in {@code file} (its directory is created when opened). */
    public static StorageSelection sqlite(Path file) {
        return parse("jdbc:sqlite:" + file.toAbsolutePath().normalize(), ProviderConfig.empty());
    }

    /** Parses {@code spec} over settings from the environment. */
    public static StorageSelection parse(String spec) {
        return parse(spec, ProviderConfig.fromEnvironment());
    }

    /**
     * Parses {@code spec} over {@code base} settings.
     *
     * @throws IllegalArgumentException when {@code spec} has none of the accepted forms
     */
    public static StorageSelection parse(String spec, ProviderConfig base) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(base, "base");
        String value = spec.strip();
        String lower = value.toLowerCase(Locale.ROOT);
        if (lower.startsWith("jdbc:")) {
            return select("jdbc", base.with("agent.persistence.jdbc.url", value), ProviderConfig.redact(value));
        }
        if (lower.startsWith("file:")) {
            Path dir = path(value, "file:");
            return select("file", base.with("agent.persistence.file.dir", dir.toString()), "file:" + dir);
        }
        if (lower.startsWith("jsonl:")) {
            Path directory = path(value, "jsonl:");
            return select("jsonl", base.with("agent.persistence.jsonl.dir", directory.toString()), "jsonl:" + directory);
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
        throw new IllegalArgumentException("unknown storage '" + spec + "': use jdbc:<url>, file:<dir>, redis://host:port,"
                + " s3://bucket[/prefix], jsonl:<dir> or a provider name");
    }

    /** Opens the provider; creates the directory of a SQLite database file first. Close it when done. */
    public PersistenceStorageProvider<CheckpointFilter> open() {
        config.get("agent.persistence.jdbc.url").filter(url -> url.startsWith("jdbc:sqlite:")).ifPresent(url -> {
            String file = url.substring("jdbc:sqlite:".length()).replaceFirst("\\?.*$", "");
            if (!file.isEmpty() && !file.startsWith(":memory:") && !file.startsWith("file:")) {
                createParent(Path.of(file));
            }
        });
        return PersistenceStorageProviders.load(config);
    }

    @Override
    public String toString() {
        return provider + " (" + description + ")";
    }

    private static StorageSelection select(String provider, ProviderConfig config, String description) {
        return new StorageSelection(provider, config.with(ProviderConfig.PROVIDER, provider), description);
    }

    private static StorageSelection s3(String value, ProviderConfig base) {
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
                config = config.with("agent.persistence.s3." + decode(pair.substring(0, eq)),
                        decode(pair.substring(eq + 1)));
            }
        }
        return select("s3", config, "s3://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix));
    }

    private static Path path(String value, String scheme) {
        String rest = value.substring(scheme.length());
        if (rest.startsWith("//")) {
            return Path.of(URI.create("file:" + rest));
        }
        if (rest.isBlank()) {
            throw new IllegalArgumentException(scheme + " needs a path, e.g. " + scheme + "target/checkpoints");
        }
        return Path.of(rest).toAbsolutePath().normalize();
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }

    private static void createParent(Path file) {
        Path parent = file.toAbsolutePath().getParent();
        try {
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + parent, e);
        }
    }
}
