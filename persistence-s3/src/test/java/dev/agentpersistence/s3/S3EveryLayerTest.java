package dev.agentpersistence.s3;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.tck.KitSettings;

/**
 * The conformance kit writing with every layer (checksum, compression, encryption, incremental history) against
 * S3Proxy.
 */
class S3EveryLayerTest extends S3StorageProviderCompatibilityTest {

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return s3Provider(KitSettings.everyLayer());
    }
}
