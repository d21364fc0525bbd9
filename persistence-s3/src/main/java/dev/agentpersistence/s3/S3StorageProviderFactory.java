package dev.agentpersistence.s3;

import dev.agentpersistence.s3.internal.S3Uri;
import dev.agentpersistence.spi.DeclaredStorageProviderFactory;
import dev.agentpersistence.spi.UriForm;

/**
 * Discovers the S3 provider under the name {@value #NAME}: {@link S3Storage#builder(S3StorageConfig)} over the
 * {@code agent.persistence.s3.*} keys of {@link S3StorageConfig}, with the keys every provider shares. Opens
 * {@code s3://bucket[/prefix][?setting=value&…]}: each query parameter is an {@code agent.persistence.s3.*} setting,
 * e.g. {@code ?endpoint=http%3A%2F%2F127.0.0.1%3A9000&path-style=true}.
 */
public final class S3StorageProviderFactory extends DeclaredStorageProviderFactory {
    /** The provider name. */
    public static final String NAME = "s3";

    /** Used by {@link java.util.ServiceLoader}. */
    public S3StorageProviderFactory() {
        super(
                NAME,
                S3StorageConfig.SETTINGS,
                config -> S3Storage.builder(S3StorageConfig.from(config))
                        .config(config)
                        .build(),
                UriForm.of("s3://bucket[/prefix]", (provider, uri, base) -> S3Uri.parse(uri, base), "s3://"));
    }
}
