package dev.agentpersistence.history;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.backend.StoredForm;
import dev.agentpersistence.internal.StorageChecks;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a {@link RetentionPolicy} to every agent of a provider and collects the history segments no kept checkpoint
 * needs. Run it once with {@link #sweep()} or on the application's own executor with {@link #schedule}; time comes from
 * the injected {@link Clock}.
 *
 * <p>A sweep: lets the provider delete its expired checkpoints ({@link PersistenceStorageProvider#deleteExpired()});
 * then, per agent (those with checkpoints and, when the provider stores histories in segments
 * ({@link PersistenceStorageProvider#storedForm()}), those with segments only), deletes the checkpoints the policy does
 * not keep with {@code deleteCheckpointsBefore} (filters pushed down to the backend), and finally deletes the agent's
 * segments that no remaining checkpoint references and that were written more than the grace period ago; a full
 * {@link #sweep()} then deletes the store's blobs (media parts stored by reference, shared by all agents) that no
 * remaining checkpoint or segment references, with the same grace period (counted with the segments). Deleting
 * checkpoints therefore never breaks a kept one, and a save running concurrently (segments written, checkpoint not yet)
 * is safe.
 *
 * <p>An agent that fails (backend error, corrupt data) is logged at WARN, reported in
 * {@link SweepReport#failedAgents()} and retried by the next sweep; the others are swept.
 */
public final class RetentionSweeper {
    private static final Logger LOG = LoggerFactory.getLogger(RetentionSweeper.class);

    private final PersistenceStorageProvider<CheckpointFilter> provider;
    /** The provider's stored form when it has a segment area, else {@code null}. */
    private final StoredForm segmented;

    private final RetentionPolicy policy;
    private final Clock clock;
    private final Duration gracePeriod;

    private RetentionSweeper(Builder builder) {
        this.provider = builder.provider;
        this.segmented =
                builder.provider.storedForm().filter(StoredForm::hasSegments).orElse(null);
        this.policy = builder.policy;
        this.clock = builder.clock;
        this.gracePeriod = builder.gracePeriod != null
                ? builder.gracePeriod
                : segmented != null
                        ? segmented.gracePeriod()
                        : IncrementalHistoryConfig.ofDefaults().gracePeriod();
    }

    /**
     * A builder sweeping {@code provider} (any provider; segments are collected when it stores histories
     * incrementally).
     */
    public static Builder builder(PersistenceStorageProvider<CheckpointFilter> provider) {
        return new Builder(Objects.requireNonNull(provider, "provider"));
    }

    /** The policy applied. */
    public RetentionPolicy policy() {
        return policy;
    }

    /**
     * Sweeps every agent once: backend expiry first, then every agent with checkpoints or segments.
     *
     * @throws UnsupportedOperationException when the provider cannot list agents or delete checkpoints
     * @throws PersistenceException when the agents cannot be listed
     */
    public SweepReport sweep() {
        Instant now = clock.instant();
        int expired = provider.deleteExpired();
        var agents = new TreeSet<>(provider.listAgents());
        if (segmented != null) {
            agents.addAll(segmented.listSegmentAgents());
        }
        SweepReport report = sweep(now, agents, expired);
        int blobs = collectBlobs(now);
        return blobs == 0
                ? report
                : new SweepReport(
                        report.startedAt(),
                        report.agentsVisited(),
                        report.checkpointsDeleted(),
                        report.expiredDeleted(),
                        report.segmentsDeleted() + blobs,
                        report.failedAgents());
    }

    /**
     * Deletes the blobs no remaining checkpoint or segment references ({@link StoredForm#collectBlobs}); a store it
     * cannot read completely keeps them all until the next sweep.
     */
    private int collectBlobs(Instant now) {
        if (segmented == null) {
            return 0;
        }
        try {
            return segmented.collectBlobs(now.minus(gracePeriod));
        } catch (PersistenceException e) {
            LOG.warn("Retention sweep kept every stored blob; the next sweep will try again: {}", e.toString());
            return 0;
        }
    }

    /**
     * Sweeps only the given agents (for example one tenant's); backend expiry, which is not per agent, is left to
     * {@link #sweep()}.
     *
     * @throws UnsupportedOperationException when the provider cannot delete checkpoints
     */
    public SweepReport sweep(Collection<String> agentIds) {
        Objects.requireNonNull(agentIds, "agentIds");
        var agents =
                agentIds.stream().map(StorageChecks::requireAgentId).collect(Collectors.toCollection(TreeSet::new));
        return sweep(clock.instant(), agents, 0);
    }

    private SweepReport sweep(Instant now, Set<String> agents, int expired) {
        int checkpoints = 0;
        int segments = 0;
        var failed = new ArrayList<String>();
        for (String agentId : agents) {
            try {
                checkpoints += applyPolicy(agentId, now);
                if (segmented != null) {
                    segments += segmented.collectGarbage(agentId, now.minus(gracePeriod));
                }
            } catch (PersistenceException e) {
                LOG.warn("Retention sweep skipped agent '{}': {}", agentId, e.toString());
                failed.add(agentId);
            }
        }
        return new SweepReport(now, agents.size(), checkpoints, expired, segments, failed);
    }

    /**
     * Runs {@link #sweep()} on {@code executor} every {@code period}, the first time after {@code initialDelay}. A
     * failing sweep is logged and does not stop later ones. Cancel the returned future (or shut the executor down,
     * which the application owns) to stop.
     */
    public ScheduledFuture<?> schedule(ScheduledExecutorService executor, Duration initialDelay, Duration period) {
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(initialDelay, "initialDelay");
        Objects.requireNonNull(period, "period");
        if (period.isNegative() || period.isZero() || initialDelay.isNegative()) {
            throw new IllegalArgumentException("period must be positive and initialDelay not negative but were "
                    + period + " and " + initialDelay);
        }
        return executor.scheduleWithFixedDelay(
                this::sweepLogged, initialDelay.toNanos(), period.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** As {@link #schedule(ScheduledExecutorService, Duration, Duration)} with the first sweep after one period. */
    public ScheduledFuture<?> schedule(ScheduledExecutorService executor, Duration period) {
        return schedule(executor, period, period);
    }

    private void sweepLogged() {
        try {
            SweepReport report = sweep();
            LOG.debug("Retention sweep: {}", report);
        } catch (RuntimeException e) {
            LOG.warn("Retention sweep failed; the next one will try again", e);
        }
    }

    /**
     * The version below which a sweep now would delete the agent's checkpoints, when it would delete any: what a dry
     * run reports. Only reads.
     */
    public OptionalLong cutoff(String agentId) {
        return cutoff(StorageChecks.requireAgentId(agentId), clock.instant());
    }

    private int applyPolicy(String agentId, Instant now) {
        OptionalLong below = cutoff(agentId, now);
        return below.isPresent() ? provider.deleteCheckpointsBefore(agentId, below.getAsLong()) : 0;
    }

    private OptionalLong cutoff(String agentId, Instant now) {
        long below = -1;
        if (policy.keepLatest().isPresent()) {
            int keep = policy.keepLatest().getAsInt();
            List<AgentCheckpoint> newest = provider.getCheckpoints(
                    agentId, CheckpointFilter.builder().limit(keep).build());
            if (newest.size() == keep) {
                below = newest.get(0).version();
            }
        }
        if (policy.maxAge().isPresent()) {
            Optional<AgentCheckpoint> expired = provider.getLatestCheckpoint(
                    agentId,
                    CheckpointFilter.builder()
                            .createdBefore(now.minus(policy.maxAge().get()))
                            .build());
            if (expired.isPresent()) {
                below = Math.max(below, expired.get().version() + 1);
            }
        }
        return below > 0 ? OptionalLong.of(below) : OptionalLong.empty();
    }

    /** Builds {@link RetentionSweeper}s. */
    public static final class Builder {
        private final PersistenceStorageProvider<CheckpointFilter> provider;
        private RetentionPolicy policy = RetentionPolicy.keepAll();
        private Clock clock = Clock.systemUTC();
        private Duration gracePeriod;

        private Builder(PersistenceStorageProvider<CheckpointFilter> provider) {
            this.provider = provider;
        }

        /** Which checkpoints to keep (default {@link RetentionPolicy#keepAll()}). */
        public Builder policy(RetentionPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** The clock that decides ages and the grace period (default the system clock, UTC). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Segments written within this period before a sweep are never deleted (default the provider's
         * {@link IncrementalHistoryConfig#gracePeriod()}). It must exceed the longest save plus the clock difference
         * between writers and sweeper; zero is safe only when no save runs during the sweep.
         */
        public Builder gracePeriod(Duration gracePeriod) {
            Objects.requireNonNull(gracePeriod, "gracePeriod");
            if (gracePeriod.isNegative()) {
                throw new IllegalArgumentException("gracePeriod must not be negative but was " + gracePeriod);
            }
            this.gracePeriod = gracePeriod;
            return this;
        }

        public RetentionSweeper build() {
            return new RetentionSweeper(this);
        }
    }
}
