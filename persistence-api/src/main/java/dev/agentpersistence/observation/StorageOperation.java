package dev.agentpersistence.observation;

import dev.agentpersistence.metrics.StorageMetricNames;

/** The storage operations the shell observes, each with the observation (and timer) name it is recorded under. */
public enum StorageOperation {
    SAVE(StorageMetricNames.CHECKPOINT_SAVE, StorageMetricNames.OP_SAVE),
    SAVE_BATCH(StorageMetricNames.CHECKPOINT_SAVE, StorageMetricNames.OP_SAVE_BATCH),
    LATEST(StorageMetricNames.CHECKPOINT_LOAD, StorageMetricNames.OP_LATEST),
    GET(StorageMetricNames.CHECKPOINT_LOAD, StorageMetricNames.OP_GET),
    LIST(StorageMetricNames.CHECKPOINT_LOAD, StorageMetricNames.OP_LIST),
    DELETE_ALL(StorageMetricNames.CHECKPOINT_DELETE, StorageMetricNames.OP_DELETE_ALL),
    DELETE_BEFORE(StorageMetricNames.CHECKPOINT_DELETE, StorageMetricNames.OP_DELETE_BEFORE),
    DELETE_EXPIRED(StorageMetricNames.CHECKPOINT_DELETE, StorageMetricNames.OP_DELETE_EXPIRED),
    LIST_AGENTS(StorageMetricNames.AGENTS_LIST, StorageMetricNames.OP_LIST);

    private final String observationName;
    private final String tag;
    private final String contextualName;

    StorageOperation(String observationName, String tag) {
        this.observationName = observationName;
        this.tag = tag;
        this.contextualName = "agent.persistence " + tag;
    }

    /** The observation's name, which is also the name of the timer meters record it under. */
    public String observationName() {
        return observationName;
    }

    /** The value of the {@code operation} key. */
    public String tag() {
        return tag;
    }

    /** The name of its spans: {@code agent.persistence <tag>}. */
    public String contextualName() {
        return contextualName;
    }
}
