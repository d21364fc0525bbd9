package dev.agentpersistence.storage.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import java.util.Map;

/**
 * The attributes a backend filters on, computed from a checkpoint, and the same transformation
 * applied to a filter, so that a backend compares like with like. Today the values are stored as
 * they are; this is the one place that would hide them (for example as keyed hashes).
 */
public final class FilterAttributes {

    /** The node attribute of {@code checkpoint}. */
    public String nodeId(AgentCheckpoint checkpoint) {
        return checkpoint.nodeId();
    }

    /** The metadata attributes of {@code checkpoint} (reserved entries are never among them). */
    public Map<String, String> metadata(AgentCheckpoint checkpoint) {
        return checkpoint.metadata();
    }

    /** {@code filter} with its node id and metadata in attribute form. */
    public CheckpointFilter query(CheckpointFilter filter) {
        return filter;
    }
}
