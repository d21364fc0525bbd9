package dev.agentpersistence.langgraph4j;

import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.PersistenceException;

/**
 * Another writer (a second saver, another JVM) stored a checkpoint of the same thread between this saver's read of the
 * latest version and its save. The checkpoint being put was <em>not</em> written, so the thread's history never forks.
 * Re-read the thread ({@code get}/{@code getState}) and decide: continue from the other writer's checkpoint, or run
 * again.
 */
public class ThreadConflictException extends PersistenceException {
    private final String threadId;
    private final String checkpointId;
    private final long version;

    public ThreadConflictException(
            String threadId, String checkpointId, long version, CheckpointConflictException cause) {
        super(
                "Checkpoint '" + checkpointId + "' of thread '" + threadId + "' was not saved: version " + version
                        + " was taken by another writer of the same thread; re-read the thread and continue from its "
                        + "latest "
                        + "checkpoint",
                cause);
        this.threadId = threadId;
        this.checkpointId = checkpointId;
        this.version = version;
    }

    /** The LangGraph4j thread id. */
    public String threadId() {
        return threadId;
    }

    /** The LangGraph4j id of the checkpoint that was not saved. */
    public String checkpointId() {
        return checkpointId;
    }

    /** The version this saver tried to take. */
    public long version() {
        return version;
    }
}
