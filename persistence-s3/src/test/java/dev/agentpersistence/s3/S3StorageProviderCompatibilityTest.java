package dev.agentpersistence.s3;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.AbsentStore;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The whole conformance kit against S3Proxy (real S3 protocol and signing), one bucket per test. */
class S3StorageProviderCompatibilityTest extends StorageProviderCompatibilityKit {
    @RegisterExtension
    static final S3ProxyExtension S3 = new S3ProxyExtension();

    private String bucket;

    @BeforeEach
    void freshBucket() {
        bucket = S3.server().newBucket();
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return s3Provider();
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider(StorageSettings settings) {
        return s3Provider(settings);
    }

    @Override
    protected byte[] dumpStorage() {
        return S3.server().dump(bucket);
    }

    @Override
    protected AbsentStore absentStore() {
        String absent = "absent-" + bucket;
        return new AbsentStore() {
            @Override
            public PersistenceStorageProvider<CheckpointFilter> open(StorageSettings settings) {
                return S3Storage.builder(
                                S3.server().config(absent).prefix("checkpoints").build())
                        .settings(settings)
                        .build();
            }

            @Override
            public boolean exists() {
                return S3.server().admin().listBuckets().buckets().stream()
                        .anyMatch(found -> found.name().equals(absent));
            }
        };
    }

    /** A provider over this test's fresh bucket. */
    final StorageShell s3Provider() {
        return s3Provider(StorageSettings.ofDefaults());
    }

    /** A provider over this test's fresh bucket writing with {@code settings}. */
    final StorageShell s3Provider(StorageSettings settings) {
        return S3Storage.builder(
                        S3.server().config(bucket).prefix("checkpoints").build())
                .settings(settings)
                .build();
    }
}
