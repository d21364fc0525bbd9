package dev.agentpersistence.benchmarks.backend;

import dev.agentpersistence.benchmarks.raw.RawS3Store;
import dev.agentpersistence.benchmarks.raw.RawStore;
import dev.agentpersistence.s3.S3Storage;
import dev.agentpersistence.s3.S3StorageConfig;
import dev.agentpersistence.storage.StorageShell;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The S3 provider on the run's bucket of the S3 server the launcher started, under a key prefix per namespace. The raw
 * baseline is one {@code PutObject} or {@code GetObject} with an SDK client built the same way as the provider's. Bytes
 * stored: the sum of the namespace's object sizes.
 */
final class S3Driver implements BackendDriver {

    @Override
    public StorageShell.Builder builder(BenchSettings settings, String namespace, boolean bulk, boolean incremental) {
        return S3Storage.builder(config(settings, namespace)).settings(BenchmarkedForm.settings(incremental));
    }

    @Override
    public int loadThreads() {
        return 4;
    }

    @Override
    public RawStore openRaw(BenchSettings settings, String namespace) {
        return new RawS3Store(client(settings), settings.bucket(), namespace + "/raw/");
    }

    @Override
    public long bytesStored(BenchSettings settings, String namespace) {
        try (S3Client client = client(settings)) {
            return client
                    .listObjectsV2Paginator(b -> b.bucket(settings.bucket()).prefix(namespace + "/"))
                    .contents()
                    .stream()
                    .mapToLong(S3Object::size)
                    .sum();
        }
    }

    @Override
    public void cleanUp(BenchSettings settings) {
        // the S3 server keeps objects in the launcher's memory and stops with it
    }

    /** A client for the launcher's S3 server, configured as the provider configures its own. */
    static S3Client client(BenchSettings settings) {
        return RawS3Store.client(
                settings.requireS3Endpoint(), BenchSettings.S3_ACCESS_KEY, BenchSettings.S3_SECRET_KEY);
    }

    private static S3StorageConfig config(BenchSettings settings, String namespace) {
        return S3StorageConfig.custom()
                .bucket(settings.bucket())
                .prefix(namespace)
                .endpoint(settings.requireS3Endpoint())
                .credentials(BenchSettings.S3_ACCESS_KEY, BenchSettings.S3_SECRET_KEY)
                .build();
    }
}
