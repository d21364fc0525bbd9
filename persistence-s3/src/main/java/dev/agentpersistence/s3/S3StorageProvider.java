package dev.agentpersistence.s3;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.s3.internal.AgentDirectory;
import dev.agentpersistence.s3.internal.BodyFormat;
import dev.agentpersistence.s3.internal.CheckpointDeletions;
import dev.agentpersistence.s3.internal.CheckpointQueries;
import dev.agentpersistence.s3.internal.CheckpointSaver;
import dev.agentpersistence.s3.internal.CheckpointStore;
import dev.agentpersistence.s3.internal.KeyLayout;
import dev.agentpersistence.s3.internal.S3Clients;
import dev.agentpersistence.s3.internal.S3Objects;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.spi.StorageChecks;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Stores checkpoints as objects in an S3 bucket. The key layout (see the module's README) answers
 * "latest" with one {@code ListObjectsV2} of one key plus one GET, a lookup by id with two GETs,
 * and filters from key names without reading bodies that cannot match. Saves use
 * {@code If-None-Match: *}, so two writers of one version never both win. Thread-safe.
 *
 * <pre>{@code
 * var storage = S3StorageProvider.create(S3StorageConfig.custom()
 *         .bucket("agent-checkpoints").prefix("prod").region("eu-central-1").build());
 * }</pre>
 */
public final class S3StorageProvider implements PersistenceStorageProvider<CheckpointFilter> {
    private final S3StorageConfig config;
    private final S3Client client;
    private final boolean ownsClient;
    private final CheckpointSaver saver;
    private final CheckpointQueries queries;
    private final CheckpointDeletions deletions;
    private final AgentDirectory agents;
    private final AtomicBoolean closed = new AtomicBoolean();

    private S3StorageProvider(Builder builder) {
        this.config = builder.config;
        this.ownsClient = builder.client == null;
        this.client = ownsClient ? S3Clients.create(config, S3StorageProviderFactory.REGION) : builder.client;
        String endpoint = ownsClient ? S3Clients.describeEndpoint(config) : "the application's S3Client";
        var objects = new S3Objects(client, config.bucket(), endpoint, config.conditionalWrites());
        var store = new CheckpointStore(objects, new KeyLayout(config.prefix()), builder.codec,
                new BodyFormat(config.gzip()));
        this.saver = new CheckpointSaver(store, builder.clock);
        this.queries = new CheckpointQueries(store);
        this.deletions = new CheckpointDeletions(store);
        this.agents = new AgentDirectory(store);
    }

    /** A provider with its own client built from {@code config}. */
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

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        StorageChecks.requireSaveArguments(agentId, checkpoint);
        requireOpen();
        saver.save(agentId, checkpoint);
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
        StorageChecks.requireAgentId(agentId);
        requireOpen();
        return queries.list(agentId, filter == null ? CheckpointFilter.ALL : filter);
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
        StorageChecks.requireAgentId(agentId);
        requireOpen();
        return queries.latest(agentId, filter == null ? CheckpointFilter.ALL : filter);
    }

    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        StorageChecks.requireAgentId(agentId);
        StorageChecks.requireCheckpointId(checkpointId);
        requireOpen();
        return queries.byId(agentId, checkpointId);
    }

    @Override
    public int deleteCheckpoints(String agentId) {
        StorageChecks.requireAgentId(agentId);
        requireOpen();
        return deletions.deleteAll(agentId);
    }

    @Override
    public int deleteCheckpointsBefore(String agentId, long version) {
        StorageChecks.requireAgentId(agentId);
        requireOpen();
        return deletions.deleteBelow(agentId, version);
    }

    @Override
    public List<String> listAgents() {
        requireOpen();
        return agents.agents();
    }

    /** Closes the client when this provider built it; a client given to the builder stays open. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true) && ownsClient) {
            client.close();
        }
    }

    @Override
    public String toString() {
        return "S3StorageProvider[" + config.location() + "]";
    }

    private void requireOpen() {
        StorageChecks.requireOpen(closed.get(), toString());
    }

    /** Builds {@link S3StorageProvider}s. */
    public static final class Builder {
        private final S3StorageConfig config;
        private S3Client client;
        private CheckpointCodec codec = CheckpointCodec.json();
        private Clock clock = Clock.systemUTC();

        private Builder(S3StorageConfig config) {
            this.config = config;
        }

        /**
         * Uses the application's client instead of building one; the application keeps closing it.
         * The connection settings of the config (endpoint, region, credentials, timeouts) are then unused.
         */
        public Builder client(S3Client client) {
            this.client = Objects.requireNonNull(client, "client");
            return this;
        }

        /** How checkpoints are turned into bytes; default {@link CheckpointCodec#json()}. */
        public Builder codec(CheckpointCodec codec) {
            this.codec = Objects.requireNonNull(codec, "codec");
            return this;
        }

        /** The clock that judges stale id claims when the store sends no {@code Date} header. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public S3StorageProvider build() {
            return new S3StorageProvider(this);
        }
    }
}
