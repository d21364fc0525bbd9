package dev.agentpersistence.s3;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.history.IncrementalHistoryStorageProvider;
import dev.agentpersistence.s3.internal.AgentDirectory;
import dev.agentpersistence.s3.internal.BodyFormat;
import dev.agentpersistence.s3.internal.CheckpointDeletions;
import dev.agentpersistence.s3.internal.CheckpointQueries;
import dev.agentpersistence.s3.internal.CheckpointSaver;
import dev.agentpersistence.s3.internal.CheckpointStore;
import dev.agentpersistence.s3.internal.KeyLayout;
import dev.agentpersistence.s3.internal.S3Clients;
import dev.agentpersistence.s3.internal.S3Objects;
import dev.agentpersistence.s3.internal.SegmentObjects;
import dev.agentpersistence.spi.HistorySegmentStore;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.spi.SegmentInfo;
import dev.agentpersistence.spi.StorageChecks;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
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
 * <p>Also a {@link HistorySegmentStore} (objects under {@code P/h/}): {@link #withIncrementalHistory()}
 * (and {@code PersistenceStorageProviders.load}) keep long message histories once instead of in
 * every checkpoint.
 *
 * <pre>{@code
 * var storage = S3StorageProvider.create(S3StorageConfig.custom()
 *         .bucket("agent-checkpoints").prefix("prod").region("eu-central-1").build());
 * }</pre>
 */
public final class S3StorageProvider implements PersistenceStorageProvider<CheckpointFilter>, HistorySegmentStore {
    private final S3StorageConfig config;
    private final CheckpointCodec codec;
    private final SegmentObjects segments;
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
        var layout = new KeyLayout(config.prefix());
        var store = new CheckpointStore(objects, layout, builder.codec, new BodyFormat(config.gzip()));
        this.codec = builder.codec;
        this.segments = new SegmentObjects(objects, layout);
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

    /**
     * This provider with incremental message histories ({@link IncrementalHistoryStorageProvider}), as
     * {@code PersistenceStorageProviders.load} hands it out; segments are written with this provider's codec.
     */
    public IncrementalHistoryStorageProvider withIncrementalHistory() {
        return IncrementalHistoryStorageProvider.builder(this).segmentCodec(codec).build();
    }

    /** One conditional PUT; a server-side copy onto itself when the segment exists. */
    @Override
    public void putSegment(String agentId, String segmentId, byte[] content) {
        StorageChecks.requireAgentId(agentId);
        StorageChecks.requireSegmentId(segmentId);
        Objects.requireNonNull(content, "content");
        requireOpen();
        segments.put(agentId, segmentId, content);
    }

    /** One GET per segment. */
    @Override
    public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
        StorageChecks.requireAgentId(agentId);
        segmentIds.forEach(StorageChecks::requireSegmentId);
        requireOpen();
        return segments.get(agentId, segmentIds);
    }

    /** Write times are the objects' last-modified times, by the store's clock. */
    @Override
    public List<SegmentInfo> listSegments(String agentId) {
        StorageChecks.requireAgentId(agentId);
        requireOpen();
        return segments.list(agentId);
    }

    /** One listing of the agent's segments, then one {@code DeleteObjects}; see the module README for the limits. */
    @Override
    public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
        StorageChecks.requireAgentId(agentId);
        segmentIds.forEach(StorageChecks::requireSegmentId);
        Objects.requireNonNull(writtenBefore, "writtenBefore");
        requireOpen();
        return segmentIds.isEmpty() ? 0 : segments.delete(agentId, segmentIds, writtenBefore);
    }

    @Override
    public List<String> listSegmentAgents() {
        requireOpen();
        return segments.agents();
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
