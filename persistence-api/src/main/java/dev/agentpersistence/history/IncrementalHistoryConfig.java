package dev.agentpersistence.history;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.settings.SettingValues;
import dev.agentpersistence.spi.ProviderConfig;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Immutable settings of the incremental history the storage shell writes. Build with {@link #custom()}, start from
 * {@link #ofDefaults()}, or read {@link ProviderConfig} keys with {@link #of(ProviderConfig)}.
 *
 * <p>With the {@linkplain #logLayout() log layout} (the default), a history of at least {@link #blockSize()} messages
 * is kept in the agent's message log, each message once, and the checkpoint references its last entry. With the tiered
 * layout, a history of {@code n} messages is cut into blocks of {@link #blockSize()} messages. The incomplete last
 * block stays inside the checkpoint; the complete blocks are stored as at most one segment per tier plus one: for tiers
 * {@code 4096, 256} and block size 16, a history of 5,000 messages is kept as segments {@code [0, 4096)}, {@code [4096,
 * 4864)}, {@code [4864, 4992)} and the 8 newest messages inline. See {@code docs/incremental-history.md} for the costs.
 */
public final class IncrementalHistoryConfig {
    /** Whether new checkpoints store their history incrementally; every provider reads both forms. */
    public static final Setting<Boolean> ENABLED = Setting.bool(
            "agent.persistence.history.incremental",
            true,
            "Write long histories incrementally (shared segments); every provider reads both forms.");
    /** How long histories are kept; see {@link Builder#layout(String)}. */
    public static final Setting<String> LAYOUT = Setting.choice(
            "agent.persistence.history.layout",
            "log",
            List.of("log", "tiers"),
            "Where long histories go: 'log' stores each message once in the agent's message log, 'tiers' in nested "
                    + "segments with the newest messages inside each checkpoint (also what a format 1 writer "
                    + "uses); every provider reads both.");
    /** Messages per block; see {@link Builder#blockSize(int)}. */
    public static final Setting<Integer> BLOCK_SIZE = Setting.integer(
            "agent.persistence.history.block-size",
            16,
            1,
            Integer.MAX_VALUE,
            "Messages per block, the unit of sharing between checkpoints (tiers); a shorter history stays inside the "
                    + "checkpoint (both layouts).");
    /** Tier sizes in messages, largest first; see {@link Builder#tierSizes(List)}. */
    public static final Setting<List<Integer>> TIER_SIZES = Setting.integers(
            "agent.persistence.history.tier-sizes",
            List.of(4096, 256),
            "Segment sizes in messages, largest first, each a multiple of the next.");
    /** See {@link Builder#gracePeriod(Duration)}. */
    public static final Setting<Duration> GRACE_PERIOD = Setting.durationOrZero(
            "agent.persistence.history.grace-period",
            Duration.ofHours(1),
            "Segments younger than this are never garbage collected (saves in flight).");
    /** See {@link Builder#cachedAgents(int)}. */
    public static final Setting<Integer> CACHED_AGENTS = Setting.integer(
            "agent.persistence.history.cached-agents",
            1024,
            1,
            Integer.MAX_VALUE,
            "Agents whose hash chains stay cached to make saves incremental.");
    /** See {@link Builder#cachedMessages(long)}. */
    public static final Setting<Long> CACHED_MESSAGES = Setting.longInteger(
            "agent.persistence.history.cached-messages",
            200_000L,
            0,
            Long.MAX_VALUE,
            "Messages the hash chain cache may reference in total (0 turns it off).");
    /** Every setting of incremental history, in documentation order. */
    public static final List<Setting<?>> SETTINGS =
            List.of(ENABLED, LAYOUT, BLOCK_SIZE, TIER_SIZES, GRACE_PERIOD, CACHED_AGENTS, CACHED_MESSAGES);

    private static final IncrementalHistoryConfig DEFAULTS = custom().build();

    private final SettingValues values;

    private IncrementalHistoryConfig(SettingValues values) {
        this.values = values;
    }

    /** The default settings. */
    public static IncrementalHistoryConfig ofDefaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder(SettingValues.defaults(SETTINGS));
    }

    /** A builder starting from {@code config}. */
    public static Builder from(IncrementalHistoryConfig config) {
        return new Builder(Objects.requireNonNull(config, "config").values);
    }

    /**
     * Settings from the {@code agent.persistence.history.*} keys, defaults for the rest.
     *
     * @throws PersistenceException naming the malformed setting
     */
    public static IncrementalHistoryConfig of(ProviderConfig config) {
        var values = SettingValues.read(SETTINGS, config);
        try {
            return new Builder(values).build();
        } catch (IllegalArgumentException e) {
            throw new PersistenceException("Invalid incremental history settings " + values + ": " + e.getMessage(), e);
        }
    }

    /** Whether long histories go to the agent's message log ({@code true}) or to tiered segments. */
    public boolean logLayout() {
        return values.get(LAYOUT).equals("log");
    }

    /**
     * Messages per block: the unit of sharing of tiered segments, where a checkpoint keeps fewer than this many
     * messages inline; in both layouts a shorter history stays wholly inside the checkpoint.
     */
    public int blockSize() {
        return values.get(BLOCK_SIZE);
    }

    /** Tier sizes in messages, largest first; each a multiple of the next and of {@link #blockSize()}. */
    public List<Integer> tierSizes() {
        return values.get(TIER_SIZES);
    }

    /** Segments written more recently than this are never garbage collected (they may belong to a save in flight). */
    public Duration gracePeriod() {
        return values.get(GRACE_PERIOD);
    }

    /** How many agents' hash chains are kept in memory to make saves incremental. */
    public int cachedAgents() {
        return values.get(CACHED_AGENTS);
    }

    /**
     * How many messages the hash chain cache may reference in total: it keeps each cached agent's last history (the
     * caller's message objects, not copies) to recognise the next save as an extension.
     */
    public long cachedMessages() {
        return values.get(CACHED_MESSAGES);
    }

    @Override
    public String toString() {
        return "IncrementalHistoryConfig" + values;
    }

    /** Builds {@link IncrementalHistoryConfig}s; arguments are checked when set and when built. */
    public static final class Builder {
        private SettingValues values;

        private Builder(SettingValues values) {
            this.values = values;
        }

        /**
         * {@code "log"} (default): a history of at least {@link #blockSize(int)} messages is stored in the agent's
         * message log, each save appending the messages it adds, so each message is stored once; the checkpoint keeps
         * only a reference to the log. {@code "tiers"}: complete blocks go to nested segments and the newest messages
         * stay in each checkpoint (the layout of earlier versions, which cannot read the log; a writer of stored form
         * format 1 uses it whatever this says). Every version of this library that knows the log reads both.
         */
        public Builder layout(String layout) {
            values = values.with(LAYOUT, layout);
            return this;
        }

        /** Messages per block, at least 1 (default 16). */
        public Builder blockSize(int blockSize) {
            values = values.with(BLOCK_SIZE, blockSize);
            return this;
        }

        /**
         * Tier sizes in messages, largest first (default 4096, 256). Each must be larger than the next and a multiple
         * of it, and the smallest a multiple of the block size larger than it. An empty list keeps every complete block
         * of a history in one segment.
         */
        public Builder tierSizes(List<Integer> tierSizes) {
            values = values.with(TIER_SIZES, List.copyOf(tierSizes));
            return this;
        }

        /** Minimum age of a segment before garbage collection may delete it; not negative (default 1 hour). */
        public Builder gracePeriod(Duration gracePeriod) {
            values = values.with(GRACE_PERIOD, gracePeriod);
            return this;
        }

        /** Agents whose hash chains stay cached, at least 1 (default 1024). */
        public Builder cachedAgents(int cachedAgents) {
            values = values.with(CACHED_AGENTS, cachedAgents);
            return this;
        }

        /**
         * Messages the cache may reference in total, not negative (default 200,000; 0 turns the cache off, so every
         * save hashes its whole history).
         */
        public Builder cachedMessages(long cachedMessages) {
            values = values.with(CACHED_MESSAGES, cachedMessages);
            return this;
        }

        /** @throws IllegalArgumentException when the tier sizes do not nest (see {@link #tierSizes(List)}) */
        public IncrementalHistoryConfig build() {
            var config = new IncrementalHistoryConfig(values);
            List<Integer> tierSizes = config.tierSizes();
            int blockSize = config.blockSize();
            int smaller = blockSize;
            for (int i = tierSizes.size() - 1; i >= 0; i--) {
                int size = tierSizes.get(i);
                if (size <= smaller || size % smaller != 0) {
                    throw new IllegalArgumentException("tier sizes must be given largest first, each a multiple of the "
                            + "next and the smallest a multiple of blockSize " + blockSize
                            + " larger than it, but were "
                            + tierSizes);
                }
                smaller = size;
            }
            return config;
        }
    }
}
