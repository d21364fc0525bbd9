package dev.agentpersistence.s3;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import java.util.List;
import java.util.Optional;

/**
 * Discovers the S3 provider under the name {@value #NAME}: {@link S3Storage#builder(S3StorageConfig)} over the
 * {@code agent.persistence.s3.*} keys of {@link S3StorageConfig}, with the keys every provider shares.
 */
public final class S3StorageProviderFactory implements PersistenceStorageProviderFactory {
    /** The provider name. */
    public static final String NAME = "s3";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
        return S3Storage.builder(S3StorageConfig.from(config)).config(config).build();
    }

    @Override
    public List<Setting<?>> settings() {
        return S3StorageConfig.SETTINGS;
    }

    /**
     * {@code s3://bucket[/prefix][?setting=value&…]}: each query parameter is an {@code agent.persistence.s3.*}
     * setting, e.g. {@code ?endpoint=http%3A%2F%2F127.0.0.1%3A9000&path-style=true}.
     */
    @Override
    public Optional<StorageUri> parseUri(String uri, ProviderConfig base) {
        if (!StorageUri.hasScheme(uri, "s3://")) {
            return Optional.empty();
        }
        return Optional.of(dev.agentpersistence.s3.internal.S3Uri.parse(uri, base));
    }

    @Override
    public List<String> uriForms() {
        return List.of("s3://bucket[/prefix]");
    }
}
