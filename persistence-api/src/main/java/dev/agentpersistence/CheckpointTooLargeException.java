package dev.agentpersistence;

/**
 * A checkpoint's stored document is larger than the configured maximum, so it was not saved.
 * Nothing was written.
 */
public class CheckpointTooLargeException extends PersistenceException {
    private final String agentId;
    private final String checkpointId;
    private final long size;
    private final long limit;

    public CheckpointTooLargeException(String agentId, String checkpointId, long size, long limit) {
        super("Checkpoint '" + checkpointId + "' of agent '" + agentId + "' is " + size
                + " bytes as stored, over the maximum checkpoint size of " + limit + " bytes; nothing was saved");
        this.agentId = agentId;
        this.checkpointId = checkpointId;
        this.size = size;
        this.limit = limit;
    }

    /** The agent whose checkpoint was refused. */
    public String agentId() {
        return agentId;
    }

    /** The refused checkpoint's id. */
    public String checkpointId() {
        return checkpointId;
    }

    /** The stored document's size in bytes. */
    public long size() {
        return size;
    }

    /** The configured maximum in bytes. */
    public long limit() {
        return limit;
    }
}
