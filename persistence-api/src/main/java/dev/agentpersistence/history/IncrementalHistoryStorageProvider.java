package dev.agentpersistence.history;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.codec.JsonCheckpointCodec;
import dev.agentpersistence.history.internal.ChainCache;
import dev.agentpersistence.history.internal.ChainHasher;
import dev.agentpersistence.history.internal.HistoryReader;
import dev.agentpersistence.history.internal.HistoryWriter;
import dev.agentpersistence.history.internal.ReservedMetadata;
import dev.agentpersistence.history.internal.SegmentCodec;
import dev.agentpersistence.history.internal.SegmentCollector;
import dev.agentpersistence.internal.StorageChecks;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores message histories incrementally on any provider with the {@link HistorySegmentStore} capability, so that an
 * agent run of N steps writes O(N) bytes instead of O(N²).
 *
 * <p>A history's complete blocks go to content-addressed segments (at most one per tier plus one, see
 * {@link IncrementalHistoryConfig}); the checkpoint keeps the remaining messages and a descriptor in the reserved
 * metadata entry {@value #DESCRIPTOR_KEY}. Consecutive checkpoints of a growing history share their segments, so a save
 * writes its new messages plus now and then one segment. Any history works (truncated, edited, rolled back): segment
 * ids depend only on content. Segments are written before the checkpoint, so a crash never leaves a checkpoint whose
 * history cannot be read.
 *
 * <p>Reading costs one checkpoint read plus one batched segment read, also for lists (the segments of all returned
 * checkpoints are fetched together, each once). Every history read back is checked against the hash chain in its
 * segment ids and its digest; a mismatch or a missing segment is a
 * {@link dev.agentpersistence.CorruptCheckpointException}. Callers always see complete, exact histories and never the
 * reserved metadata entry; metadata keys starting with {@value #RESERVED_METADATA_PREFIX} are refused with
 * {@link IllegalArgumentException}.
 *
 * <p>Deleting checkpoints never breaks a kept one: segments are only removed by {@link #collectGarbage}, which spares
 * every segment a stored checkpoint references and every segment younger than the grace period.
 * {@link #deleteCheckpoints} and {@link #deleteCheckpointsBefore} collect the agent's garbage right away;
 * {@link RetentionSweeper} does so for every agent on a schedule.
 *
 * <p>Create with {@link #of}, {@link #builder} or {@link #wrap}; {@code PersistenceStorageProviders.load} wraps
 * providers with the capability by default. Thread-safe.
 */
public final class IncrementalHistoryStorageProvider
        implements PersistenceStorageProvider<CheckpointFilter>, SegmentedHistoryStorage {
    /** Metadata keys with this prefix are reserved for the library. */
    public static final String RESERVED_METADATA_PREFIX = ReservedMetadata.PREFIX;
    /** The metadata entry of a stored checkpoint that describes where its history lives. */
    public static final String DESCRIPTOR_KEY = RESERVED_METADATA_PREFIX + "history";

    private static final Logger LOG = LoggerFactory.getLogger(IncrementalHistoryStorageProvider.class);

    private final PersistenceStorageProvider<CheckpointFilter> delegate;
    private final HistorySegmentStore segments;
    private final IncrementalHistoryConfig config;
    private final Clock clock;
    private final ChainCache cache;
    private final HistoryWriter writer;
    private final HistoryReader reader;
    private final SegmentCollector collector;

    private IncrementalHistoryStorageProvider(Builder builder) {
        this.delegate = builder.delegate;
        this.segments = builder.segments;
        this.config = builder.config;
        this.clock = builder.clock;
        this.cache = new ChainCache(config.cachedAgents(), config.cachedMessages());
        var hasher = new ChainHasher();
        var codec = new SegmentCodec(builder.segmentCodec);
        this.writer = new HistoryWriter(
                segments,
                codec,
                hasher,
                cache,
                clock,
                config.blockSize(),
                config.tierSizes(),
                config.gracePeriod(),
                DESCRIPTOR_KEY);
        this.reader = new HistoryReader(segments, cache, codec, hasher, DESCRIPTOR_KEY, delegate.toString());
        this.collector = new SegmentCollector(delegate, segments, reader);
    }

    /** {@code provider} with incremental histories and default settings. */
    public static <P extends PersistenceStorageProvider<CheckpointFilter> & HistorySegmentStore>
            IncrementalHistoryStorageProvider of(P provider) {
        return builder(provider).build();
    }

    /** A builder over {@code provider}. */
    public static <P extends PersistenceStorageProvider<CheckpointFilter> & HistorySegmentStore> Builder builder(
            P provider) {
        Objects.requireNonNull(provider, "provider");
        return new Builder(provider, provider);
    }

    /**
     * {@code provider} with incremental histories when it has the {@link HistorySegmentStore} capability; otherwise, or
     * when it already stores histories incrementally, {@code provider} itself.
     *
     * @param segmentCodec how segments become bytes: the codec the provider stores checkpoints with
     */
    public static PersistenceStorageProvider<CheckpointFilter> wrap(
            PersistenceStorageProvider<CheckpointFilter> provider,
            IncrementalHistoryConfig config,
            CheckpointCodec segmentCodec) {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(segmentCodec, "segmentCodec");
        if (provider instanceof IncrementalHistoryStorageProvider || !(provider instanceof HistorySegmentStore store)) {
            return provider;
        }
        return new Builder(provider, store)
                .config(config)
                .segmentCodec(segmentCodec)
                .build();
    }

    /**
     * As {@link #wrap(PersistenceStorageProvider, IncrementalHistoryConfig, CheckpointCodec)} with default settings and
     * JSON segments.
     */
    public static PersistenceStorageProvider<CheckpointFilter> wrap(
            PersistenceStorageProvider<CheckpointFilter> provider) {
        return wrap(provider, IncrementalHistoryConfig.ofDefaults(), CheckpointCodec.json());
    }

    /** The provider holding the stored checkpoints (with shortened histories and descriptors). */
    public PersistenceStorageProvider<CheckpointFilter> delegate() {
        return delegate;
    }

    /** The settings. */
    public IncrementalHistoryConfig config() {
        return config;
    }

    @Override
    public Duration gracePeriod() {
        return config.gracePeriod();
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        StorageChecks.requireSaveArguments(agentId, checkpoint);
        ReservedMetadata.requireUnreserved(checkpoint.metadata(), "checkpoint metadata");
        AgentCheckpoint stored = writer.prepare(agentId, checkpoint);
        try {
            delegate.saveCheckpoint(agentId, stored);
        } catch (CheckpointConflictException e) {
            if (!storedAsIs(agentId, checkpoint)) {
                throw e;
            }
        }
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
        requireUnreserved(filter);
        return complete(agentId, delegate.getCheckpoints(agentId, filter));
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId) {
        return complete(agentId, delegate.getCheckpoints(agentId));
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
        requireUnreserved(filter);
        return completeAndRemember(agentId, delegate.getLatestCheckpoint(agentId, filter));
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId) {
        return completeAndRemember(agentId, delegate.getLatestCheckpoint(agentId));
    }

    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        return completeAndRemember(agentId, delegate.getCheckpoint(agentId, checkpointId));
    }

    /** Deletes the agent's checkpoints, then its segments older than the grace period. */
    @Override
    public int deleteCheckpoints(String agentId) {
        int deleted = delegate.deleteCheckpoints(agentId);
        collectQuietly(agentId);
        return deleted;
    }

    /**
     * Deletes the agent's checkpoints below {@code version}, then the segments no kept checkpoint needs (older than the
     * grace period).
     */
    @Override
    public int deleteCheckpointsBefore(String agentId, long version) {
        int deleted = delegate.deleteCheckpointsBefore(agentId, version);
        if (deleted > 0) {
            collectQuietly(agentId);
        }
        return deleted;
    }

    @Override
    public List<String> listAgents() {
        return delegate.listAgents();
    }

    /**
     * Deletes the agent's segments that no stored checkpoint references and that were last written before
     * {@code writtenBefore}; returns how many. Pass a time at least the grace period in the past: a save in flight has
     * written its segments but not yet its checkpoint.
     */
    @Override
    public int collectGarbage(String agentId, Instant writtenBefore) {
        StorageChecks.requireAgentId(agentId);
        Objects.requireNonNull(writtenBefore, "writtenBefore");
        int deleted = collector.collect(agentId, writtenBefore);
        if (deleted > 0) {
            cache.forget(agentId);
        }
        return deleted;
    }

    /** The agents that have segments, sorted; includes agents whose checkpoints are all gone. */
    @Override
    public List<String> listSegmentAgents() {
        return segments.listSegmentAgents();
    }

    /** Closes the underlying provider. */
    @Override
    public void close() {
        cache.clear();
        delegate.close();
    }

    @Override
    public String toString() {
        return "IncrementalHistoryStorageProvider[" + delegate + "]";
    }

    private List<AgentCheckpoint> complete(String agentId, List<AgentCheckpoint> stored) {
        var assembled = reader.assemble(agentId, stored);
        var result = new ArrayList<AgentCheckpoint>(assembled.size());
        for (var one : assembled) {
            result.add(one.checkpoint());
        }
        return List.copyOf(result);
    }

    private Optional<AgentCheckpoint> completeAndRemember(String agentId, Optional<AgentCheckpoint> stored) {
        if (stored.isEmpty()) {
            return stored;
        }
        var assembled = reader.assemble(agentId, List.of(stored.get())).get(0);
        writer.remember(agentId, assembled);
        return Optional.of(assembled.checkpoint());
    }

    /** Whether the checkpoint stored at the same version has the same content (stored in another form). */
    private boolean storedAsIs(String agentId, AgentCheckpoint checkpoint) {
        var atVersion = getCheckpoints(
                agentId,
                CheckpointFilter.builder()
                        .maxVersion(checkpoint.version())
                        .limit(1)
                        .build());
        return !atVersion.isEmpty()
                && atVersion.get(0).version() == checkpoint.version()
                && JsonCheckpointCodec.instance().sameContent(checkpoint, atVersion.get(0));
    }

    private void collectQuietly(String agentId) {
        try {
            collectGarbage(agentId, clock.instant().minus(config.gracePeriod()));
        } catch (PersistenceException e) {
            LOG.warn(
                    "Could not collect the unused history segments of agent '{}' after a deletion; "
                            + "the next collection will: {}",
                    agentId,
                    e.toString());
        }
    }

    private static void requireUnreserved(CheckpointFilter filter) {
        if (filter != null) {
            ReservedMetadata.requireUnreserved(filter.metadata(), "filter metadata");
        }
    }

    /** Builds {@link IncrementalHistoryStorageProvider}s. */
    public static final class Builder {
        private final PersistenceStorageProvider<CheckpointFilter> delegate;
        private final HistorySegmentStore segments;
        private IncrementalHistoryConfig config = IncrementalHistoryConfig.ofDefaults();
        private CheckpointCodec segmentCodec = CheckpointCodec.json();
        private Clock clock = Clock.systemUTC();

        private Builder(PersistenceStorageProvider<CheckpointFilter> delegate, HistorySegmentStore segments) {
            this.delegate = delegate;
            this.segments = segments;
        }

        /** Block size, tiers, grace period and cache size (default {@link IncrementalHistoryConfig#ofDefaults()}). */
        public Builder config(IncrementalHistoryConfig config) {
            this.config = Objects.requireNonNull(config, "config");
            return this;
        }

        /**
         * How segments become bytes (default {@link CheckpointCodec#json()}); give the codec the provider itself uses,
         * so that compression or encryption applies to segments too.
         */
        public Builder segmentCodec(CheckpointCodec codec) {
            this.segmentCodec = Objects.requireNonNull(codec, "codec");
            return this;
        }

        /** The clock for segment write times and the grace period (default the system clock, UTC). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public IncrementalHistoryStorageProvider build() {
            return new IncrementalHistoryStorageProvider(this);
        }
    }
}
