package dev.agentpersistence.file;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Discovers the file provider under the name {@value #NAME}: {@link FileStorage#builder(FileStorageConfig)} over the
 * {@code agent.persistence.file.*} keys of {@link FileStorageConfig}, with the keys every provider shares.
 */
public final class FileStorageProviderFactory implements PersistenceStorageProviderFactory {
    /** The provider name. */
    public static final String NAME = "file";

    private static final String SCHEME = "file:";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
        return FileStorage.builder(FileStorageConfig.from(config))
                .config(config)
                .build();
    }

    @Override
    public List<Setting<?>> settings() {
        return FileStorageConfig.SETTINGS;
    }

    /** {@code file:<directory>}: relative, absolute or {@code file:///absolute}. */
    @Override
    public Optional<StorageUri> parseUri(String uri, ProviderConfig base) {
        if (!StorageUri.hasScheme(uri, SCHEME)) {
            return Optional.empty();
        }
        Path directory = StorageUri.directory(uri, SCHEME);
        return Optional.of(StorageUri.select(
                NAME, base.with(FileStorageConfig.DIRECTORY.key(), directory.toString()), SCHEME + directory));
    }

    @Override
    public List<String> uriForms() {
        return List.of("file:<dir>");
    }
}
