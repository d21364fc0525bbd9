package dev.agentpersistence.file;

import dev.agentpersistence.spi.DeclaredStorageProviderFactory;
import dev.agentpersistence.spi.UriForm;

/**
 * Discovers the file provider under the name {@value #NAME}: {@link FileStorage#builder(FileStorageConfig)} over the
 * {@code agent.persistence.file.*} keys of {@link FileStorageConfig}, with the keys every provider shares. Opens
 * {@code file:<directory>}: relative, absolute or {@code file:///absolute}.
 */
public final class FileStorageProviderFactory extends DeclaredStorageProviderFactory {
    /** The provider name. */
    public static final String NAME = "file";

    /** Used by {@link java.util.ServiceLoader}. */
    public FileStorageProviderFactory() {
        super(
                NAME,
                FileStorageConfig.SETTINGS,
                config -> FileStorage.builder(FileStorageConfig.from(config))
                        .config(config)
                        .build(),
                UriForm.directory("file:", FileStorageConfig.DIRECTORY));
    }
}
