package dev.agentpersistence.s3;

import dev.agentpersistence.s3.internal.S3Clients;
import dev.agentpersistence.s3.internal.S3StorageBackend;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import java.time.Clock;
import java.util.Objects;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Stores checkpoints as objects in an S3 bucket. The storage shell ({@link StorageShell}) over
 * {@code S3StorageBackend}: it reads every stored form and writes the one its {@link StorageSettings} choose (by
 * default those of discovery: checksums, compression from 4 KiB, incremental history in objects under {@code P/h/}).
 * The key layout (see the module's README) answers "latest" with two GETs (the agent's latest pointer, then the body it
 * names), a lookup by id with two GETs, and filters from key names without reading bodies that cannot match. Saves use
 * {@code If-None-Match: *}, so two writers of one version never both win. Thread-safe.
 *
 * <pre>{@code
 * var storage = S3StorageProvider.create(S3StorageConfig.custom()
 *         .bucket("agent-checkpoints").prefix("prod").region("eu-central-1").build());
 * }</pre>
 */
public final class S3StorageProvider extends StorageShell {
    private final S3StorageConfig config;

    private S3StorageProvider(Builder builder) {
        super(backend(builder), builder.settings, builder.clock);
        this.config = builder.config;
    }

    private static S3StorageBackend backend(Builder builder) {
        S3StorageConfig config = builder.config;
        boolean owns = builder.client == null;
        S3Client client = owns ? S3Clients.create(config, S3StorageConfig.REGION.key()) : builder.client;
        String endpoint = owns ? S3Clients.describeEndpoint(config) : "the application's S3Client";
        return new S3StorageBackend(
                client,
                owns,
                config.bucket(),
                config.prefix(),
                endpoint,
                config.conditionalWrites(),
                config.gzip(),
                builder.clock,
                builder.settings.maxCheckpointSize(),
                config.location());
    }

    /** A provider with its own client built from {@code config} and the default settings. */
    public static S3StorageProvider create(S3StorageConfig config) {
        return builder(config).build();
    }

    /** A builder for a provider over {@code config}. */
    public static Builder builder(S3StorageConfig config) {
        return new Builder(Objects.requireNonNull(config, "config"));
    }

    /** The settings this provider uses. */
    public S3StorageConfig config() {
        return config;
    }

    /** Builds {@link S3StorageProvider}s. */
    public static final class Builder {
        private final S3StorageConfig config;
        private S3Client client;
        private StorageSettings settings = StorageSettings.ofDefaults();
        private Clock clock = Clock.systemUTC();

        private Builder(S3StorageConfig config) {
            this.config = config;
        }

        /**
         * Uses the application's client instead of building one; the application keeps closing it. The connection
         * settings of the config (endpoint, region, credentials, timeouts) are then unused.
         */
        public Builder client(S3Client client) {
            this.client = Objects.requireNonNull(client, "client");
            return this;
        }

        /**
         * What is written: layers, maximum size, incremental history (default {@link StorageSettings#ofDefaults()}).
         */
        public Builder settings(StorageSettings settings) {
            this.settings = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /** The clock for segment times and stale id claims (when the store sends no {@code Date} header). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public S3StorageProvider build() {
            return new S3StorageProvider(this);
        }
    }
}
