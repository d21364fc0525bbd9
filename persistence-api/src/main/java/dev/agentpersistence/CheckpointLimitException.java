package dev.agentpersistence;

/**
 * A checkpoint goes beyond a limit every reader applies (size, nesting depth, string, name or number length), so it was
 * not saved: what a save acknowledges always reads back. Names the agent, the checkpoint, the limit and where in the
 * checkpoint it was exceeded. Nothing was written.
 */
public class CheckpointLimitException extends PersistenceException {
    private final String agentId;
    private final String checkpointId;
    private final String limitName;
    private final long limit;

    /**
     * @param limitName what is limited, e.g. "nesting depth"
     * @param where where in the checkpoint, e.g. {@code state["plan"]}
     */
    public CheckpointLimitException(String agentId, String checkpointId, String limitName, long limit, String where) {
        this(
                "Checkpoint '" + checkpointId + "' of agent '" + agentId + "' was not saved: " + where + " exceeds the "
                        + limitName + " of " + limit + " that every reader applies",
                agentId,
                checkpointId,
                limitName,
                limit);
    }

    /** For subclasses with their own message. */
    protected CheckpointLimitException(
            String message, String agentId, String checkpointId, String limitName, long limit) {
        super(message);
        this.agentId = agentId;
        this.checkpointId = checkpointId;
        this.limitName = limitName;
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

    /** What is limited. */
    public String limitName() {
        return limitName;
    }

    /** The limit. */
    public long limit() {
        return limit;
    }
}
