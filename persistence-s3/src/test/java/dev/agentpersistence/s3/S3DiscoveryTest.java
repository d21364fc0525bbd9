package dev.agentpersistence.s3;

import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.DiscoveryKit;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The factory is found by ServiceLoader under {@code s3} and makes a working provider from settings. */
class S3DiscoveryTest extends DiscoveryKit {
    @RegisterExtension
    static final S3ProxyExtension S3 = new S3ProxyExtension();

    private static String bucket;

    @BeforeAll
    static void createBucket() {
        bucket = S3.server().newBucket();
    }

    @Override
    protected String providerName() {
        return "s3";
    }

    @Override
    protected ProviderConfig config() {
        return ProviderConfig.of(Map.of(
                S3StorageConfig.BUCKET.key(),
                bucket,
                S3StorageConfig.ENDPOINT.key(),
                S3.server().endpoint().toString(),
                S3StorageConfig.ACCESS_KEY_ID.key(),
                S3ProxyServer.ACCESS_KEY,
                S3StorageConfig.SECRET_ACCESS_KEY.key(),
                S3ProxyServer.SECRET_KEY,
                S3StorageConfig.PREFIX.key(),
                "discovered"));
    }

    @Override
    protected Class<?> expectedProviderType() {
        return StorageShell.class;
    }
}
