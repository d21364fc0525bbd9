package dev.agentpersistence.s3;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.spi.PersistenceStorageProvider;

/** The conformance kit through the incremental history layer against S3Proxy, one bucket per test. */
class S3IncrementalHistoryTest extends S3StorageProviderCompatibilityTest {

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return s3Provider().withIncrementalHistory();
    }
}
