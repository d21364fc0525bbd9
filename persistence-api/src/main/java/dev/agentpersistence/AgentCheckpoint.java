package dev.agentpersistence;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.internal.Maps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The complete state of an agent at one point of its run.
 *
 * <p>Immutable: lists and maps are copied on construction. {@link JsonNode} values are not deep copied; do not mutate a
 * node after handing it over or after reading it back.
 *
 * @param checkpointId unique per agent; see {@link Identifiers}
 * @param agentId the agent this checkpoint belongs to; see {@link Identifiers}
 * @param version 0-based, strictly increasing per agent; assigned by the caller
 * @param createdAt when the checkpoint was taken; stored to the nanosecond
 * @param nodeId the node that was running, or {@code null}
 * @param lastInput the input of that node, or {@code null}
 * @param lastInputType a type name for {@code lastInput}, or {@code null}
 * @param messageHistory the whole conversation so far
 * @param state the agent's key/value storage, kept sorted by key
 * @param metadata free-form attributes, filterable through {@link CheckpointFilter#metadata()}
 * @param parentCheckpointId the checkpoint this one was derived from, or {@code null}
 */
public record AgentCheckpoint(
        String checkpointId,
        String agentId,
        long version,
        Instant createdAt,
        String nodeId,
        JsonNode lastInput,
        String lastInputType,
        List<Message> messageHistory,
        Map<String, JsonNode> state,
        Map<String, String> metadata,
        String parentCheckpointId) {

    /** The {@link #nodeId()} that marks a tombstone: "this agent's run finished; start fresh". */
    public static final String TOMBSTONE_NODE_ID = "__tombstone__";

    public AgentCheckpoint {
        Identifiers.requireValid(checkpointId, "checkpointId");
        Identifiers.requireValid(agentId, "agentId");
        if (version < 0) {
            throw new IllegalArgumentException("version must be >= 0 but was " + version);
        }
        Objects.requireNonNull(createdAt, "createdAt must not be null: it is when the checkpoint was taken");
        if (parentCheckpointId != null) {
            Identifiers.requireValid(parentCheckpointId, "parentCheckpointId");
        }
        messageHistory = messageHistory == null ? List.of() : List.copyOf(messageHistory);
        state = Maps.sortedJsonMap(state, "state");
        metadata = Maps.sortedStringMap(metadata, "metadata");
    }

    /** A marker saved when a run completes; restoring "latest" then starts fresh. */
    public static AgentCheckpoint tombstone(String agentId, long version, Instant createdAt) {
        return builder()
                .checkpointId(TOMBSTONE_NODE_ID + "-" + version)
                .agentId(agentId)
                .version(version)
                .createdAt(createdAt)
                .nodeId(TOMBSTONE_NODE_ID)
                .build();
    }

    /** Whether this is a tombstone written by {@link #tombstone(String, long, Instant)}. */
    public boolean isTombstone() {
        return TOMBSTONE_NODE_ID.equals(nodeId);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder pre-filled with this checkpoint's values. */
    public Builder toBuilder() {
        return new Builder()
                .checkpointId(checkpointId)
                .agentId(agentId)
                .version(version)
                .createdAt(createdAt)
                .nodeId(nodeId)
                .lastInput(lastInput)
                .lastInputType(lastInputType)
                .messageHistory(messageHistory)
                .state(state)
                .metadata(metadata)
                .parentCheckpointId(parentCheckpointId);
    }

    /**
     * Builds {@link AgentCheckpoint}s; {@code checkpointId}, {@code agentId} and {@code createdAt} are required, and
     * {@link #build()} names the call that is missing.
     */
    public static final class Builder {
        private String checkpointId;
        private String agentId;
        private long version;
        private Instant createdAt;
        private String nodeId;
        private JsonNode lastInput;
        private String lastInputType;
        private List<Message> messageHistory = List.of();
        private Map<String, JsonNode> state = Map.of();
        private Map<String, String> metadata = Map.of();
        private String parentCheckpointId;

        private Builder() {}

        public Builder checkpointId(String checkpointId) {
            this.checkpointId = checkpointId;
            return this;
        }

        public Builder agentId(String agentId) {
            this.agentId = agentId;
            return this;
        }

        public Builder version(long version) {
            this.version = version;
            return this;
        }

        public Builder createdAt(Instant createdAt) {
            this.createdAt = createdAt;
            return this;
        }

        public Builder nodeId(String nodeId) {
            this.nodeId = nodeId;
            return this;
        }

        public Builder lastInput(JsonNode lastInput) {
            this.lastInput = lastInput;
            return this;
        }

        public Builder lastInputType(String lastInputType) {
            this.lastInputType = lastInputType;
            return this;
        }

        public Builder messageHistory(List<Message> messageHistory) {
            this.messageHistory = messageHistory;
            return this;
        }

        /** Appends one message to the history. */
        public Builder message(Message message) {
            var copy = new ArrayList<>(messageHistory);
            copy.add(Objects.requireNonNull(message, "message"));
            this.messageHistory = copy;
            return this;
        }

        public Builder state(Map<String, JsonNode> state) {
            this.state = state;
            return this;
        }

        /** Puts one state entry. */
        public Builder state(String key, JsonNode value) {
            this.state = Maps.with(state, Objects.requireNonNull(key, "key"), value);
            return this;
        }

        public Builder metadata(Map<String, String> metadata) {
            this.metadata = metadata;
            return this;
        }

        /** Puts one metadata entry. */
        public Builder metadata(String key, String value) {
            this.metadata =
                    Maps.with(metadata, Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        public Builder parentCheckpointId(String parentCheckpointId) {
            this.parentCheckpointId = parentCheckpointId;
            return this;
        }

        /**
         * The checkpoint.
         *
         * @throws IllegalStateException when {@code checkpointId}, {@code agentId} or {@code createdAt} was not set,
         *     naming the builder call to add
         */
        public AgentCheckpoint build() {
            requireSet(
                    checkpointId,
                    "checkpointId",
                    ".checkpointId(String), e.g. .checkpointId(UUID.randomUUID().toString())");
            requireSet(agentId, "agentId", ".agentId(String)");
            requireSet(
                    createdAt,
                    "createdAt",
                    ".createdAt(Instant), e.g. .createdAt(Instant.now()) or .createdAt(clock.instant())");
            return new AgentCheckpoint(
                    checkpointId,
                    agentId,
                    version,
                    createdAt,
                    nodeId,
                    lastInput,
                    lastInputType,
                    messageHistory,
                    state,
                    metadata,
                    parentCheckpointId);
        }

        private static void requireSet(Object value, String field, String call) {
            if (value == null) {
                throw new IllegalStateException(
                        "AgentCheckpoint: " + field + " is required: call " + call + " on the builder");
            }
        }
    }
}
