package dev.agentpersistence;

/**
 * Stored data could not be read back as a checkpoint: truncated, not the expected format, a newer format than this
 * library understands, or inconsistent with where it was stored.
 */
public class CorruptCheckpointException extends PersistenceException {
    private final String agentId;
    private final String checkpointId;
    private final String location;

    public CorruptCheckpointException(
            String agentId, String checkpointId, String location, String problem, Throwable cause) {
        super(
                "Corrupt checkpoint" + (checkpointId == null ? "" : " '" + checkpointId + "'") + " of agent '" + agentId
                        + "' at " + location + ": " + problem,
                cause);
        this.agentId = agentId;
        this.checkpointId = checkpointId;
        this.location = location;
    }

    /** The agent the data belongs to. */
    public String agentId() {
        return agentId;
    }

    /** The checkpoint id, when the storage layout knows it; else {@code null}. */
    public String checkpointId() {
        return checkpointId;
    }

    /** Where the data lives: a file path, a table row, an object key, a Redis key. */
    public String location() {
        return location;
    }
}
