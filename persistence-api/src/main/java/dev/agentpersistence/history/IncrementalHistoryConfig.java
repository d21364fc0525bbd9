package dev.agentpersistence.history;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.Setting;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Immutable settings of {@link IncrementalHistoryStorageProvider}. Build with {@link #custom()},
 * start from {@link #ofDefaults()}, or read {@link ProviderConfig} keys with {@link #of(ProviderConfig)}.
 *
 * <p>A history of {@code n} messages is cut into blocks of {@link #blockSize()} messages. The
 * incomplete last block stays inside the checkpoint; the complete blocks are stored as at most one
 * segment per tier plus one: for tiers {@code 4096, 256} and block size 16, a history of 5,000
 * messages is kept as segments {@code [0, 4096)}, {@code [4096, 4864)}, {@code [4864, 4992)} and the
 * 8 newest messages inline. See {@code docs/incremental-history.md} for the costs.
 */
public final class IncrementalHistoryConfig {
    /** Whether new checkpoints store their history incrementally; every provider reads both forms. */
    public static final Setting<Boolean> ENABLED = Setting.bool("agent.persistence.history.incremental", true,
            "Write long histories incrementally (shared segments); every provider reads both forms.");
    /** Messages per block; see {@link Builder#blockSize(int)}. */
    public static final Setting<Integer> BLOCK_SIZE = Setting.integer("agent.persistence.history.block-size", 16,
            1, Integer.MAX_VALUE, "Messages per block, the unit of sharing between checkpoints.");
    /** Tier sizes in messages, largest first; see {@link Builder#tierSizes(List)}. */
    public static final Setting<List<Integer>> TIER_SIZES = Setting.integers("agent.persistence.history.tier-sizes",
            List.of(4096, 256), "Segment sizes in messages, largest first, each a multiple of the next.");
    /** See {@link Builder#gracePeriod(Duration)}. */
    public static final Setting<Duration> GRACE_PERIOD = Setting.durationOrZero("agent.persistence.history.grace-period",
            Duration.ofHours(1), "Segments younger than this are never garbage collected (saves in flight).");
    /** See {@link Builder#cachedAgents(int)}. */
    public static final Setting<Integer> CACHED_AGENTS = Setting.integer("agent.persistence.history.cached-agents",
            1024, 1, Integer.MAX_VALUE, "Agents whose hash chains stay cached to make saves incremental.");
    /** See {@link Builder#cachedMessages(long)}. */
    public static final Setting<Long> CACHED_MESSAGES = Setting.longInteger("agent.persistence.history.cached-messages",
            200_000L, 0, Long.MAX_VALUE, "Messages the hash chain cache may reference in total (0 turns it off).");
    /** Every setting of incremental history, in documentation order. */
    public static final List<Setting<?>> SETTINGS =
            List.of(ENABLED, BLOCK_SIZE, TIER_SIZES, GRACE_PERIOD, CACHED_AGENTS, CACHED_MESSAGES);

    /** The key of {@link #ENABLED}. */
    public static final String ENABLED_KEY = ENABLED.key();
    /** The key of {@link #BLOCK_SIZE}. */
    public static final String BLOCK_SIZE_KEY = BLOCK_SIZE.key();
    /** The key of {@link #TIER_SIZES}. */
    public static final String TIER_SIZES_KEY = TIER_SIZES.key();
    /** The key of {@link #GRACE_PERIOD}. */
    public static final String GRACE_PERIOD_KEY = GRACE_PERIOD.key();
    /** The key of {@link #CACHED_AGENTS}. */
    public static final String CACHED_AGENTS_KEY = CACHED_AGENTS.key();
    /** The key of {@link #CACHED_MESSAGES}. */
    public static final String CACHED_MESSAGES_KEY = CACHED_MESSAGES.key();
    /** Default {@link #blockSize()}. */
    public static final int DEFAULT_BLOCK_SIZE = BLOCK_SIZE.defaultValue().orElseThrow();
    /** Default {@link #tierSizes()}. */
    public static final List<Integer> DEFAULT_TIER_SIZES = TIER_SIZES.defaultValue().orElseThrow();
    /** Default {@link #gracePeriod()}. */
    public static final Duration DEFAULT_GRACE_PERIOD = GRACE_PERIOD.defaultValue().orElseThrow();
    /** Default {@link #cachedAgents()}. */
    public static final int DEFAULT_CACHED_AGENTS = CACHED_AGENTS.defaultValue().orElseThrow();
    /** Default {@link #cachedMessages()}. */
    public static final long DEFAULT_CACHED_MESSAGES = CACHED_MESSAGES.defaultValue().orElseThrow();

    private static final IncrementalHistoryConfig DEFAULTS = custom().build();

    private final int blockSize;
    private final List<Integer> tierSizes;
    private final Duration gracePeriod;
    private final int cachedAgents;
    private final long cachedMessages;

    private IncrementalHistoryConfig(Builder builder) {
        this.blockSize = builder.blockSize;
        this.tierSizes = builder.tierSizes;
        this.gracePeriod = builder.gracePeriod;
        this.cachedAgents = builder.cachedAgents;
        this.cachedMessages = builder.cachedMessages;
    }

    /** The default settings. */
    public static IncrementalHistoryConfig ofDefaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder();
    }

    /** A builder starting from {@code config}. */
    public static Builder from(IncrementalHistoryConfig config) {
        Objects.requireNonNull(config, "config");
        return new Builder().blockSize(config.blockSize).tierSizes(config.tierSizes)
                .gracePeriod(config.gracePeriod).cachedAgents(config.cachedAgents).cachedMessages(config.cachedMessages);
    }

    /**
     * Settings from the {@code agent.persistence.history.*} keys, defaults for the rest.
     *
     * @throws PersistenceException naming the malformed setting
     */
    public static IncrementalHistoryConfig of(ProviderConfig config) {
        Objects.requireNonNull(config, "config");
        try {
            return custom().blockSize(BLOCK_SIZE.read(config)).tierSizes(TIER_SIZES.read(config))
                    .gracePeriod(GRACE_PERIOD.read(config)).cachedAgents(CACHED_AGENTS.read(config))
                    .cachedMessages(CACHED_MESSAGES.read(config)).build();
        } catch (IllegalArgumentException e) {
            throw new PersistenceException("Invalid incremental history settings in " + config + ": " + e.getMessage(), e);
        }
    }

    /** Messages per block: the unit of sharing; a checkpoint keeps fewer than this many messages inline. */
    public int blockSize() {
        return blockSize;
    }

    /** Tier sizes in messages, largest first; each a multiple of the next and of {@link #blockSize()}. */
    public List<Integer> tierSizes() {
        return tierSizes;
    }

    /** Segments written more recently than this are never garbage collected (they may belong to a save in flight). */
    public Duration gracePeriod() {
        return gracePeriod;
    }

    /** How many agents' hash chains are kept in memory to make saves incremental. */
    public int cachedAgents() {
        return cachedAgents;
    }

    /**
     * How many messages the hash chain cache may reference in total: it keeps each cached agent's last
     * history (the caller's message objects, not copies) to recognise the next save as an extension.
     */
    public long cachedMessages() {
        return cachedMessages;
    }

    @Override
    public String toString() {
        return "IncrementalHistoryConfig{blockSize=" + blockSize + ", tierSizes=" + tierSizes + ", gracePeriod="
                + gracePeriod + ", cachedAgents=" + cachedAgents + ", cachedMessages=" + cachedMessages + "}";
    }

    /** Builds {@link IncrementalHistoryConfig}s; arguments are checked when set and when built. */
    public static final class Builder {
        private int blockSize = DEFAULT_BLOCK_SIZE;
        private List<Integer> tierSizes = DEFAULT_TIER_SIZES;
        private Duration gracePeriod = DEFAULT_GRACE_PERIOD;
        private int cachedAgents = DEFAULT_CACHED_AGENTS;
        private long cachedMessages = DEFAULT_CACHED_MESSAGES;

        private Builder() {
        }

        /** Messages per block, at least 1 (default 16). */
        public Builder blockSize(int blockSize) {
            this.blockSize = BLOCK_SIZE.check(blockSize);
            return this;
        }

        /**
         * Tier sizes in messages, largest first (default 4096, 256). Each must be larger than the
         * next and a multiple of it, and the smallest a multiple of the block size larger than it.
         * An empty list keeps every complete block of a history in one segment.
         */
        public Builder tierSizes(List<Integer> tierSizes) {
            Objects.requireNonNull(tierSizes, "tierSizes").forEach(size -> Objects.requireNonNull(size, "tier size"));
            this.tierSizes = List.copyOf(TIER_SIZES.check(tierSizes));
            return this;
        }

        /** Minimum age of a segment before garbage collection may delete it; not negative (default 1 hour). */
        public Builder gracePeriod(Duration gracePeriod) {
            this.gracePeriod = GRACE_PERIOD.check(gracePeriod);
            return this;
        }

        /** Agents whose hash chains stay cached, at least 1 (default 1024). */
        public Builder cachedAgents(int cachedAgents) {
            this.cachedAgents = CACHED_AGENTS.check(cachedAgents);
            return this;
        }

        /**
         * Messages the cache may reference in total, not negative (default 200,000; 0 turns the cache
         * off, so every save hashes its whole history).
         */
        public Builder cachedMessages(long cachedMessages) {
            this.cachedMessages = CACHED_MESSAGES.check(cachedMessages);
            return this;
        }

        /**
         * @throws IllegalArgumentException when the tier sizes do not nest (see {@link #tierSizes(List)})
         */
        public IncrementalHistoryConfig build() {
            int smaller = blockSize;
            for (int i = tierSizes.size() - 1; i >= 0; i--) {
                int size = tierSizes.get(i);
                if (size <= smaller || size % smaller != 0) {
                    throw new IllegalArgumentException("tier sizes must be given largest first, each a multiple of the "
                            + "next and the smallest a multiple of blockSize " + blockSize + " larger than it, but were "
                            + tierSizes);
                }
                smaller = size;
            }
            return new IncrementalHistoryConfig(this);
        }
    }
}
