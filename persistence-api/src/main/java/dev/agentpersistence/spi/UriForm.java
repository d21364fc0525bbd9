package dev.agentpersistence.spi;

import dev.agentpersistence.settings.Setting;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One form of store URI a factory opens: the schemes that mark it (matched ignoring case,
 * {@link StorageUri#hasScheme}), its text for help and error messages ({@code jdbc:<url>}) and how a URI of that form
 * becomes the provider's settings. {@link DeclaredStorageProviderFactory} takes its forms as these; a factory that
 * implements {@link PersistenceStorageProviderFactory} itself may call {@link #parse} from its {@code parseUri}.
 *
 * <pre>{@code
 * UriForm.setting("redis://host:port", RedisStorageConfig.URI_SETTING, "redis://", "rediss://")
 * UriForm.directory("file:", FileStorageConfig.DIRECTORY)
 * UriForm.of("s3://bucket[/prefix]", (provider, uri, base) -> S3Uri.parse(uri, base), "s3://")
 * }</pre>
 *
 * Immutable.
 */
public final class UriForm {
    private final String text;
    private final List<String> schemes;
    private final Reader reader;

    /** Reads a URI that has one of the form's schemes. */
    @FunctionalInterface
    public interface Reader {
        /**
         * The store {@code uri} names over {@code base}, for {@code provider} ({@link StorageUri#select}).
         *
         * @throws IllegalArgumentException when {@code uri} has the form's scheme but is not of the form
         */
        StorageUri read(String provider, String uri, ProviderConfig base);
    }

    private UriForm(String text, Reader reader, String... schemes) {
        this.text = Objects.requireNonNull(text, "text");
        this.reader = Objects.requireNonNull(reader, "reader");
        this.schemes = List.of(schemes);
        if (this.schemes.isEmpty()) {
            throw new IllegalArgumentException("a URI form needs a scheme: " + text);
        }
    }

    /** A form read by {@code reader} once the URI has one of {@code schemes}. */
    public static UriForm of(String text, Reader reader, String... schemes) {
        return new UriForm(text, reader, schemes);
    }

    /**
     * A URI that is itself the value of {@code setting}, such as {@code jdbc:<any JDBC URL>} or
     * {@code redis://host:port}; described with its passwords hidden ({@link ProviderConfig#redact}).
     */
    public static UriForm setting(String text, Setting<?> setting, String... schemes) {
        Objects.requireNonNull(setting, "setting");
        return new UriForm(
                text,
                (provider, uri, base) ->
                        StorageUri.select(provider, base.with(setting.key(), uri), ProviderConfig.redact(uri)),
                schemes);
    }

    /**
     * {@code <scheme><dir>}, a directory relative, absolute or {@code <scheme>///absolute}
     * ({@link StorageUri#directory}): the absolute, normalized directory is the value of {@code setting}; the text is
     * {@code <scheme><dir>}, the description the scheme and the directory.
     */
    public static UriForm directory(String scheme, Setting<?> setting) {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(setting, "setting");
        return new UriForm(
                scheme + "<dir>",
                (provider, uri, base) -> {
                    Path directory = StorageUri.directory(uri, scheme);
                    return StorageUri.select(
                            provider, base.with(setting.key(), directory.toString()), scheme + directory);
                },
                scheme);
    }

    /**
     * The store {@code uri} names for {@code provider} over {@code base} when it has one of this form's schemes, else
     * empty.
     *
     * @throws IllegalArgumentException when {@code uri} has one of the schemes but is not of the form
     */
    public Optional<StorageUri> parse(String provider, String uri, ProviderConfig base) {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(base, "base");
        for (String scheme : schemes) {
            if (StorageUri.hasScheme(uri, scheme)) {
                return Optional.of(reader.read(provider, uri, base));
            }
        }
        return Optional.empty();
    }

    /** The form for help and error messages, e.g. {@code file:<dir>}. */
    public String text() {
        return text;
    }

    /** The schemes that mark the form, e.g. {@code redis://} and {@code rediss://}. */
    public List<String> schemes() {
        return schemes;
    }

    @Override
    public String toString() {
        return text;
    }
}
