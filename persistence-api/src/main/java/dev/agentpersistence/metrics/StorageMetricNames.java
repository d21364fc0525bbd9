package dev.agentpersistence.metrics;

/** Names and tags of the storage meters recorded by {@link MeteredStorageProvider}. */
public final class StorageMetricNames {
    /** Timer of {@code saveCheckpoint}; tags provider, operation=save, outcome (success, conflict, error). */
    public static final String CHECKPOINT_SAVE = "agent.persistence.checkpoint.save";
    /** Timer of reads; tags provider, operation (latest, get, list), outcome (success, not_found, error). */
    public static final String CHECKPOINT_LOAD = "agent.persistence.checkpoint.load";
    /** Timer of deletes; tags provider, operation (all, before), outcome. */
    public static final String CHECKPOINT_DELETE = "agent.persistence.checkpoint.delete";
    /** Timer of {@code listAgents}; tags provider, operation=list, outcome. */
    public static final String AGENTS_LIST = "agent.persistence.agents.list";
    /** Distribution of saved checkpoint sizes in bytes (their JSON form); tag provider. */
    public static final String CHECKPOINT_SIZE = "agent.persistence.checkpoint.size";
    /** Counter of saves refused with a conflict; tag provider. */
    public static final String CHECKPOINT_CONFLICTS = "agent.persistence.checkpoint.conflicts";
    /** Counter of failed calls; tags provider, operation, exception (simple class name). */
    public static final String ERRORS = "agent.persistence.errors";

    public static final String TAG_PROVIDER = "provider";
    public static final String TAG_OPERATION = "operation";
    public static final String TAG_OUTCOME = "outcome";
    public static final String TAG_EXCEPTION = "exception";

    private StorageMetricNames() {
    }
}
