package dev.agentpersistence;

/**
 * A save collided with a different checkpoint already stored under the same {@code (agentId, version)} or
 * {@code (agentId, checkpointId)}. Nothing was written. Saving an identical checkpoint again is not a conflict.
 */
public class CheckpointConflictException extends PersistenceException {
    private final String agentId;
    private final String checkpointId;
    private final long version;

    public CheckpointConflictException(String agentId, String checkpointId, long version, String message) {
        super(message);
        this.agentId = agentId;
        this.checkpointId = checkpointId;
        this.version = version;
    }

    /** The standard conflict for a save that found other content at its key. */
    public static CheckpointConflictException of(String agentId, AgentCheckpoint incoming, AgentCheckpoint stored) {
        String what = stored.version() == incoming.version()
                ? "version " + incoming.version() + " is already stored as checkpoint '" + stored.checkpointId() + "'"
                : "checkpoint id '" + incoming.checkpointId() + "' is already stored at version " + stored.version();
        return new CheckpointConflictException(
                agentId,
                incoming.checkpointId(),
                incoming.version(),
                "Cannot save checkpoint '" + incoming.checkpointId() + "' (version " + incoming.version()
                        + ") of agent '" + agentId + "': " + what + " with different content");
    }

    /** The agent whose save conflicted. */
    public String agentId() {
        return agentId;
    }

    /** The id of the checkpoint that could not be saved. */
    public String checkpointId() {
        return checkpointId;
    }

    /** The version of the checkpoint that could not be saved. */
    public long version() {
        return version;
    }
}
