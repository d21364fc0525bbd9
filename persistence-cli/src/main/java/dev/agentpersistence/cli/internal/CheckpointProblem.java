package dev.agentpersistence.cli.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.CorruptCheckpointException;

/**
 * A stored checkpoint that cannot be read, as {@code verify} reports it.
 *
 * @param agentId the agent
 * @param checkpointId the checkpoint id, when known
 * @param version the version, or {@code -1} when not known
 * @param location where it is stored (a path, a table row, a key)
 * @param problem what is wrong, one line
 */
public record CheckpointProblem(String agentId, String checkpointId, long version, String location, String problem) {

    /** The problem {@code failure} describes, at {@code version} when the failure does not say. */
    public static CheckpointProblem of(String agentId, long version, CorruptCheckpointException failure) {
        String message = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        return new CheckpointProblem(
                agentId,
                failure.checkpointId(),
                version,
                failure.location(),
                message.strip().lines().findFirst().orElse(""));
    }

    /** As JSON. */
    public ObjectNode toJson() {
        ObjectNode json = Json.object();
        json.put("agentId", agentId);
        json.put("checkpointId", checkpointId);
        if (version >= 0) {
            json.put("version", version);
        }
        json.put("location", location);
        json.put("problem", problem);
        return json;
    }
}
