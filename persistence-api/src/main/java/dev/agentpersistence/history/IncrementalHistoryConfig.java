package dev.agentpersistence.history;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.spi.ProviderConfig;
import java.time.Duration;
import java.util.ArrayList;
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
    /** Whether {@code PersistenceStorageProviders.load} stores histories incrementally (default {@code true}). */
    public static final String ENABLED_KEY = "agent.persistence.history.incremental";
    /** Messages per block; see {@link Builder#blockSize(int)}. */
    public static final String BLOCK_SIZE_KEY = "agent.persistence.history.block-size";
    /** Comma-separated tier sizes in messages; see {@link Builder#tierSizes(List)}. */
    public static final String TIER_SIZES_KEY = "agent.persistence.history.tier-sizes";
    /** See {@link Builder#gracePeriod(Duration)}. */
    public static final String GRACE_PERIOD_KEY = "agent.persistence.history.grace-period";
    /** See {@link Builder#cachedAgents(int)}. */
    public static final String CACHED_AGENTS_KEY = "agent.persistence.history.cached-agents";
    /** See {@link Builder#cachedMessages(long)}. */
    public static final String CACHED_MESSAGES_KEY = "agent.persistence.history.cached-messages";

    /** Default {@link #blockSize()}. */
    public static final int DEFAULT_BLOCK_SIZE = 16;
    /** Default {@link #tierSizes()}. */
    public static final List<Integer> DEFAULT_TIER_SIZES = List.of(4096, 256);
    /** Default {@link #gracePeriod()}. */
    public static final Duration DEFAULT_GRACE_PERIOD = Duration.ofHours(1);
    /** Default {@link #cachedAgents()}. */
    public static final int DEFAULT_CACHED_AGENTS = 1024;
    /** Default {@link #cachedMessages()}. */
    public static final long DEFAULT_CACHED_MESSAGES = 200_000;

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

    /** Settings from the {@code agent.persistence.history.*} keys, defaults for the rest. */
    public static IncrementalHistoryConfig of(ProviderConfig config) {
        Objects.requireNonNull(config, "config");
        var builder = custom();
        try {
            builder.blockSize(config.getInt(BLOCK_SIZE_KEY, DEFAULT_BLOCK_SIZE));
            config.get(TIER_SIZES_KEY).ifPresent(text -> builder.tierSizes(parseTiers(text)));
            config.getDuration(GRACE_PERIOD_KEY).ifPresent(builder::gracePeriod);
            builder.cachedAgents(config.getInt(CACHED_AGENTS_KEY, DEFAULT_CACHED_AGENTS));
            builder.cachedMessages(config.getLong(CACHED_MESSAGES_KEY, DEFAULT_CACHED_MESSAGES));
            return builder.build();
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

    private static List<Integer> parseTiers(String text) {
        var tiers = new ArrayList<Integer>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                try {
                    tiers.add(Integer.parseInt(part.trim()));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(TIER_SIZES_KEY + " must be a comma-separated list of integers but was '"
                            + text + "'", e);
                }
            }
        }
        return tiers;
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
            if (blockSize < 1) {
                throw new IllegalArgumentException("blockSize must be at least 1 but was " + blockSize);
            }
            this.blockSize = blockSize;
            return this;
        }

        /**
         * Tier sizes in messages, largest first (default 4096, 256). Each must be larger than the
         * next and a multiple of it, and the smallest a multiple of the block size larger than it.
         * An empty list keeps every complete block of a history in one segment.
         */
        public Builder tierSizes(List<Integer> tierSizes) {
            Objects.requireNonNull(tierSizes, "tierSizes");
            for (Integer size : tierSizes) {
                Objects.requireNonNull(size, "tier size");
                if (size < 1) {
                    throw new IllegalArgumentException("tier sizes must be positive but were " + tierSizes);
                }
            }
            this.tierSizes = List.copyOf(tierSizes);
            return this;
        }

        /** Minimum age of a segment before garbage collection may delete it; not negative (default 1 hour). */
        public Builder gracePeriod(Duration gracePeriod) {
            Objects.requireNonNull(gracePeriod, "gracePeriod");
            if (gracePeriod.isNegative()) {
                throw new IllegalArgumentException("gracePeriod must not be negative but was " + gracePeriod);
            }
            this.gracePeriod = gracePeriod;
            return this;
        }

        /** Agents whose hash chains stay cached, at least 1 (default 1024). */
        public Builder cachedAgents(int cachedAgents) {
            if (cachedAgents < 1) {
                throw new IllegalArgumentException("cachedAgents must be at least 1 but was " + cachedAgents);
            }
            this.cachedAgents = cachedAgents;
            return this;
        }

        /**
         * Messages the cache may reference in total, not negative (default 200,000; 0 turns the cache
         * off, so every save hashes its whole history).
         */
        public Builder cachedMessages(long cachedMessages) {
            if (cachedMessages < 0) {
                throw new IllegalArgumentException("cachedMessages must not be negative but was " + cachedMessages);
            }
            this.cachedMessages = cachedMessages;
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
