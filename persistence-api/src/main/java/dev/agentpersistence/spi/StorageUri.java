package dev.agentpersistence.spi;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A store named by one string, turned into the provider settings {@link PersistenceStorageProviders} reads. The
 * provider is always named explicitly ({@value ProviderConfig#PROVIDER}), so the string decides even when several
 * providers are on the class path. The demo's {@code --storage} option and the command line both take these forms.
 *
 * <p>Each provider factory declares the URI forms it opens ({@link PersistenceStorageProviderFactory#parseUri},
 * {@link PersistenceStorageProviderFactory#uriForms}, usually as {@link UriForm}s of a
 * {@link DeclaredStorageProviderFactory}): the built-in ones take {@code jdbc:<any JDBC URL>},
 * {@code file:<directory>}, {@code redis://host:port[/db]} (and {@code rediss://}) and
 * {@code s3://bucket[/prefix][?setting=value…]}. A bare provider name selects that provider with the base settings
 * only. Other settings (a JDBC password, S3 credentials, encryption keys) come from the base settings, usually
 * {@link ProviderConfig#fromEnvironment()}. The {@link #description()} never holds a password.
 *
 * @param provider the provider name
 * @param config the settings, the provider name included
 * @param description where checkpoints are, passwords hidden
 */
public record StorageUri(String provider, ProviderConfig config, String description) {

    public StorageUri {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(description, "description");
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
        return parse(spec, base, PersistenceStorageProviders.available());
    }

    /**
     * Parses {@code spec} over {@code base} settings with the URI forms of {@code factories}.
     *
     * @throws IllegalArgumentException when {@code spec} has none of their forms and is not a provider name
     */
    public static StorageUri parse(
            String spec, ProviderConfig base, List<? extends PersistenceStorageProviderFactory> factories) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(factories, "factories");
        String value = spec.strip();
        for (PersistenceStorageProviderFactory factory : factories) {
            Optional<StorageUri> parsed = factory.parseUri(value, base);
            if (parsed.isPresent()) {
                return parsed.get();
            }
        }
        if (value.matches("[a-z0-9-]+")) {
            return select(value, base, value + " (settings from the environment)");
        }
        throw new IllegalArgumentException(
                "unknown storage '" + ProviderConfig.redact(spec) + "': use " + forms(factories));
    }

    /** The forms {@code factories} accept, then "or a provider name", for help and error messages. */
    public static String forms(List<? extends PersistenceStorageProviderFactory> factories) {
        var forms = factories.stream()
                .flatMap(factory -> factory.uriForms().stream())
                .toList();
        return forms.isEmpty() ? "a provider name" : String.join(", ", forms) + " or a provider name";
    }

    /** Whether {@code value} starts with {@code scheme}, ignoring case: for factories' {@code parseUri}. */
    public static boolean hasScheme(String value, String scheme) {
        return value.regionMatches(true, 0, scheme, 0, scheme.length());
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

    /** Opens the provider. Close it when done. */
    public PersistenceStorageProvider<CheckpointFilter> open() {
        return PersistenceStorageProviders.load(config);
    }

    @Override
    public String toString() {
        return provider + " (" + description + ")";
    }
}
