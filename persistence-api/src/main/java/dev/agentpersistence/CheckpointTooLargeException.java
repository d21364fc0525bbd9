package dev.agentpersistence;

/** A checkpoint's stored document is larger than the configured maximum, so it was not saved. Nothing was written. */
public class CheckpointTooLargeException extends CheckpointLimitException {
    private final long size;

    public CheckpointTooLargeException(String agentId, String checkpointId, long size, long limit) {
        super(
                "Checkpoint '" + checkpointId + "' of agent '" + agentId + "' is " + size
                        + " bytes as stored, over the maximum checkpoint size of " + limit
                        + " bytes; nothing was saved",
                agentId,
                checkpointId,
                "maximum checkpoint size",
                limit);
        this.size = size;
    }

    /** The stored document's size in bytes. */
    public long size() {
        return size;
    }
}
