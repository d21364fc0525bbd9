package dev.agentpersistence.s3;

import dev.agentpersistence.backend.BackendContext;
import dev.agentpersistence.s3.internal.S3Clients;
import dev.agentpersistence.s3.internal.S3StorageBackend;
import dev.agentpersistence.storage.StorageShell;
import java.util.Objects;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Entry point of the S3 provider: checkpoints as objects in an S3 bucket. Each method returns the shell's builder over
 * the S3 backend; {@code build()} gives the provider. The key layout (see the module's README) answers "latest" with
 * two GETs (the agent's latest pointer, then the body it names), a lookup by id with two GETs, and filters from key
 * names without reading bodies that cannot match. Saves use {@code If-None-Match: *}, so two writers of one version
 * never both win. Thread-safe.
 *
 * <pre>{@code
 * PersistenceStorageProvider<CheckpointFilter> storage = S3Storage.builder(S3StorageConfig.custom()
 *                 .bucket("agent-checkpoints").prefix("prod").region("eu-central-1").build())
 *         .build();
 * }</pre>
 */
public final class S3Storage {
    private S3Storage() {}

    /** A provider with its own client built from {@code config}, closed with the provider. */
    public static StorageShell.Builder builder(S3StorageConfig config) {
        Objects.requireNonNull(config, "config");
        return StorageShell.builder(context -> backend(
                context,
                config,
                S3Clients.create(config, S3StorageConfig.REGION.key()),
                true,
                S3Clients.describeEndpoint(config)));
    }

    /**
     * A provider over the application's client, which the application keeps closing; the connection settings of
     * {@code config} (endpoint, region, credentials, timeouts) are then unused.
     */
    public static StorageShell.Builder builder(S3StorageConfig config, S3Client client) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(client, "client");
        return StorageShell.builder(context -> backend(context, config, client, false, "the application's S3Client"));
    }

    private static S3StorageBackend backend(
            BackendContext context, S3StorageConfig config, S3Client client, boolean owns, String endpoint) {
        return new S3StorageBackend(
                client,
                owns,
                config.bucket(),
                config.prefix(),
                endpoint,
                config.conditionalWrites(),
                config.gzip(),
                config.location(),
                context);
    }
}
