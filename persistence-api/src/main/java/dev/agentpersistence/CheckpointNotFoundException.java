package dev.agentpersistence;

/** A rollback named a checkpoint the agent does not have. */
public class CheckpointNotFoundException extends PersistenceException {
    private final String agentId;
    private final String checkpointId;

    public CheckpointNotFoundException(String agentId, String checkpointId) {
        super("Agent '" + agentId + "' has no checkpoint '" + checkpointId + "'");
        this.agentId = agentId;
        this.checkpointId = checkpointId;
    }

    /** The agent that was searched. */
    public String agentId() {
        return agentId;
    }

    /** The checkpoint id that was not found. */
    public String checkpointId() {
        return checkpointId;
    }
}
