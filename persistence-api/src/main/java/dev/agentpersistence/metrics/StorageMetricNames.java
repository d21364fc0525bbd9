package dev.agentpersistence.metrics;

/**
 * Names, tags and tag values of the storage observations and of the meters
 * {@link dev.agentpersistence.observation.AgentMeterHandler} records from them. Every storage meter carries the tag
 * {@value #TAG_PROVIDER}. Timers record each call once, tagged with its {@value #TAG_OPERATION} and
 * {@value #TAG_OUTCOME}.
 *
 * <table>
 *   <caption>Outcomes</caption>
 *   <tr><td>{@value #OUTCOME_SUCCESS}</td><td>the call returned</td></tr>
 *   <tr><td>{@value #OUTCOME_NOT_FOUND}</td><td>the call returned an empty {@code Optional}</td></tr>
 *   <tr><td>{@value #OUTCOME_CONFLICT}</td><td>a save threw {@code CheckpointConflictException}</td></tr>
 *   <tr><td>{@value #OUTCOME_UNSUPPORTED}</td><td>the provider does not implement the operation</td></tr>
 *   <tr><td>{@value #OUTCOME_ERROR}</td><td>any other exception; also counted in {@value #ERRORS}</td></tr>
 * </table>
 */
public final class StorageMetricNames {
    /** Timer of {@code saveCheckpoint}; tags provider, operation=save, outcome (success, conflict, error). */
    public static final String CHECKPOINT_SAVE = "agent.persistence.checkpoint.save";
    /** Timer of reads; tags provider, operation (latest, get, list), outcome (success, not_found, error). */
    public static final String CHECKPOINT_LOAD = "agent.persistence.checkpoint.load";
    /** Timer of deletes; tags provider, operation (delete_all, delete_before), outcome. */
    public static final String CHECKPOINT_DELETE = "agent.persistence.checkpoint.delete";
    /** Timer of {@code listAgents}; tags provider, operation=list, outcome. */
    public static final String AGENTS_LIST = "agent.persistence.agents.list";
    /** Distribution of saved checkpoint sizes in bytes, as the backend stored them; tag provider. */
    public static final String CHECKPOINT_SIZE = "agent.persistence.checkpoint.size";
    /** Counter of saves refused with a conflict; tag provider. */
    public static final String CHECKPOINT_CONFLICTS = "agent.persistence.checkpoint.conflicts";
    /** Counter of failed storage calls; tags provider, operation, exception (simple class name). */
    public static final String ERRORS = "agent.persistence.storage.errors";
    /** Timer of checkpoint creation through the facade; tags kind (checkpoint, tombstone), outcome. */
    public static final String CHECKPOINT_CREATE = "agent.persistence.checkpoint.create";
    /**
     * Timer of rollbacks; tags target (checkpoint, latest), outcome (restored, no_checkpoint, run_completed, error).
     */
    public static final String ROLLBACK = "agent.persistence.rollback";
    /** Counter of inverse tool calls made by rollbacks; tag outcome (success, failure). */
    public static final String INVERSE_CALLS = "agent.persistence.rollback.inverse.calls";
    /** Counter of checkpoint saves tried again after another writer took the version. */
    public static final String CONFLICT_RETRIES = "agent.persistence.checkpoint.conflict.retries";

    /**
     * Timer of the chat-memory operations of {@code ConversationStore}; tags operation (load, append, replace, clear,
     * delete, rollback), outcome.
     */
    public static final String CONVERSATION = "agent.persistence.conversation";

    public static final String TAG_PROVIDER = "provider";
    public static final String TAG_OPERATION = "operation";
    public static final String TAG_OUTCOME = "outcome";
    public static final String TAG_EXCEPTION = "exception";

    public static final String OP_SAVE = "save";
    public static final String OP_SAVE_BATCH = "save_batch";
    public static final String OP_LATEST = "latest";
    public static final String OP_GET = "get";
    public static final String OP_LIST = "list";
    public static final String OP_DELETE_ALL = "delete_all";
    public static final String OP_DELETE_BEFORE = "delete_before";
    public static final String OP_DELETE_EXPIRED = "delete_expired";

    public static final String OUTCOME_SUCCESS = "success";
    public static final String OUTCOME_NOT_FOUND = "not_found";
    public static final String OUTCOME_CONFLICT = "conflict";
    public static final String OUTCOME_UNSUPPORTED = "unsupported";
    public static final String OUTCOME_ERROR = "error";

    private StorageMetricNames() {}

    /** The description registered with the meter {@code name}, or {@code null}. */
    public static String describe(String name) {
        return switch (name) {
            case CHECKPOINT_SAVE -> "Time to save one checkpoint in the storage provider";
            case CHECKPOINT_LOAD -> "Time to read checkpoints from the storage provider";
            case CHECKPOINT_DELETE -> "Time to delete checkpoints in the storage provider";
            case AGENTS_LIST -> "Time to list the agents that have checkpoints";
            case CHECKPOINT_CONFLICTS -> "Saves refused because another checkpoint holds the version or id";
            case ERRORS -> "Storage calls that failed, by operation and exception type";
            case CHECKPOINT_CREATE -> "Time to create and save one checkpoint through AgentPersistence";
            case ROLLBACK -> "Time to roll an agent back: undo tool calls and restore a checkpoint";
            case INVERSE_CALLS -> "Inverse tool calls made by rollbacks";
            case CONFLICT_RETRIES -> "Checkpoint saves tried again after another writer took the version";
            case CONVERSATION ->
                "Time of one chat-memory operation: a load, an append, a replacement, a clear, "
                        + "a deletion or a rollback of a conversation";
            default -> null;
        };
    }
}
