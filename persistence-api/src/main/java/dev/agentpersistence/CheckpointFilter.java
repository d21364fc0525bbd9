package dev.agentpersistence;

import dev.agentpersistence.internal.Maps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Selects checkpoints of one agent. Every field that is set must match; {@code null} means "any". Built-in providers
 * evaluate every field in the backend.
 *
 * @param nodeId exact node id
 * @param createdAfter {@code createdAt >= createdAfter} (inclusive)
 * @param createdBefore {@code createdAt < createdBefore} (exclusive)
 * @param maxVersion {@code version <= maxVersion} (inclusive)
 * @param limit keep only the {@code limit} newest matches (still returned in ascending order); at least 1
 * @param metadata every entry must be present with the same value
 * @param includeTombstones whether tombstones match (default {@code true})
 */
public record CheckpointFilter(
        String nodeId,
        Instant createdAfter,
        Instant createdBefore,
        Long maxVersion,
        Integer limit,
        Map<String, String> metadata,
        boolean includeTombstones) {

    /** Matches everything. */
    public static final CheckpointFilter ALL = builder().build();

    public CheckpointFilter {
        if (limit != null && limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1 but was " + limit);
        }
        if (maxVersion != null && maxVersion < 0) {
            throw new IllegalArgumentException("maxVersion must be >= 0 but was " + maxVersion);
        }
        metadata = Maps.sortedStringMap(metadata, "metadata");
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder pre-filled with this filter's values. */
    public Builder toBuilder() {
        return builder()
                .nodeId(nodeId)
                .createdAfter(createdAfter)
                .createdBefore(createdBefore)
                .maxVersion(maxVersion)
                .limit(limit)
                .metadata(metadata)
                .includeTombstones(includeTombstones);
    }

    /** Whether one checkpoint matches every field except {@link #limit()}. */
    public boolean matches(AgentCheckpoint checkpoint) {
        Objects.requireNonNull(checkpoint, "checkpoint");
        if (nodeId != null && !nodeId.equals(checkpoint.nodeId())) {
            return false;
        }
        if (createdAfter != null && checkpoint.createdAt().isBefore(createdAfter)) {
            return false;
        }
        if (createdBefore != null && !checkpoint.createdAt().isBefore(createdBefore)) {
            return false;
        }
        if (maxVersion != null && checkpoint.version() > maxVersion) {
            return false;
        }
        if (!includeTombstones && checkpoint.isTombstone()) {
            return false;
        }
        for (var entry : metadata.entrySet()) {
            if (!entry.getValue().equals(checkpoint.metadata().get(entry.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Applies the whole filter to checkpoints already in ascending version order; for providers whose backend cannot
     * evaluate a field itself.
     */
    public List<AgentCheckpoint> apply(List<AgentCheckpoint> ascending) {
        var matched = new ArrayList<AgentCheckpoint>();
        for (var checkpoint : ascending) {
            if (matches(checkpoint)) {
                matched.add(checkpoint);
            }
        }
        if (limit != null && matched.size() > limit) {
            return List.copyOf(matched.subList(matched.size() - limit, matched.size()));
        }
        return List.copyOf(matched);
    }

    /** Builds {@link CheckpointFilter}s. */
    public static final class Builder {
        private String nodeId;
        private Instant createdAfter;
        private Instant createdBefore;
        private Long maxVersion;
        private Integer limit;
        private Map<String, String> metadata = Map.of();
        private boolean includeTombstones = true;

        private Builder() {}

        public Builder nodeId(String nodeId) {
            this.nodeId = nodeId;
            return this;
        }

        public Builder createdAfter(Instant inclusive) {
            this.createdAfter = inclusive;
            return this;
        }

        public Builder createdBefore(Instant exclusive) {
            this.createdBefore = exclusive;
            return this;
        }

        public Builder maxVersion(Long inclusive) {
            this.maxVersion = inclusive;
            return this;
        }

        public Builder limit(Integer limit) {
            this.limit = limit;
            return this;
        }

        public Builder metadata(Map<String, String> metadata) {
            this.metadata = metadata;
            return this;
        }

        /** Requires one metadata entry. */
        public Builder metadata(String key, String value) {
            this.metadata =
                    Maps.with(metadata, Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        public Builder includeTombstones(boolean includeTombstones) {
            this.includeTombstones = includeTombstones;
            return this;
        }

        public CheckpointFilter build() {
            return new CheckpointFilter(
                    nodeId, createdAfter, createdBefore, maxVersion, limit, metadata, includeTombstones);
        }
    }
}
