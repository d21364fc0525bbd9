package dev.agentpersistence.s3;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/** The conformance kit through the incremental history layer against S3Proxy, one bucket per test. */
class S3IncrementalHistoryTest extends StorageProviderCompatibilityKit {
    private static S3ProxyServer server;
    private String bucket;

    @BeforeAll
    static void startServer() throws Exception {
        server = S3ProxyServer.start();
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    @BeforeEach
    void freshBucket() {
        bucket = server.newBucket();
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return S3StorageProvider.create(server.config(bucket).prefix("checkpoints").build()).withIncrementalHistory();
    }
}
