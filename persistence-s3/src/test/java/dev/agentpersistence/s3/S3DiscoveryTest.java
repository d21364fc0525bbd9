package dev.agentpersistence.s3;

import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.tck.DiscoveryKit;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The factory is found by ServiceLoader under {@code s3} and makes a working provider from settings. */
class S3DiscoveryTest extends DiscoveryKit {
    private static S3ProxyServer server;
    private static String bucket;

    @BeforeAll
    static void startServer() throws Exception {
        server = S3ProxyServer.start();
        bucket = server.newBucket();
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    @Override
    protected String providerName() {
        return "s3";
    }

    @Override
    protected ProviderConfig config() {
        return ProviderConfig.of(Map.of(
                S3StorageProviderFactory.BUCKET, bucket,
                S3StorageProviderFactory.ENDPOINT, server.endpoint().toString(),
                S3StorageProviderFactory.ACCESS_KEY_ID, S3ProxyServer.ACCESS_KEY,
                S3StorageProviderFactory.SECRET_ACCESS_KEY, S3ProxyServer.SECRET_KEY,
                S3StorageProviderFactory.PREFIX, "discovered"));
    }

    @Override
    protected Class<?> expectedProviderType() {
        return S3StorageProvider.class;
    }
}
