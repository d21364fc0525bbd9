package dev.agentpersistence.examples;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import io.micrometer.observation.ObservationRegistry;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A storage backend chosen with one string, as the examples' {@code --storage} option takes it: every form of
 * {@link StorageUri} ({@code jdbc:…}, {@code file:<dir>}, {@code redis://…}, {@code s3://bucket[/prefix]}, a provider
 * name) plus {@code jsonl:<dir>}, the examples' custom JSON Lines backend.
 *
 * @param provider the provider name
 * @param config the settings, the provider name included
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
        Objects.requireNonNull(file, "file");
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
        return of(StorageUri.parse(spec, base));
    }

    /** Opens the provider; creates the directory of a SQLite database file first. Close it when done. */
    public PersistenceStorageProvider<CheckpointFilter> open() {
        return new StorageUri(provider, config, description).open();
    }

    /** As {@link #open()}, the provider observed into {@code observations}. */
    public PersistenceStorageProvider<CheckpointFilter> open(ObservationRegistry observations) {
        return new StorageUri(provider, config.withObservations(observations), description).open();
    }

    @Override
    public String toString() {
        return provider + " (" + description + ")";
    }

    private static StorageSelection of(StorageUri uri) {
        return new StorageSelection(uri.provider(), uri.config(), uri.description());
    }
}
