package dev.agentpersistence.langgraph4j;

import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.PersistenceException;

/**
 * Another writer (a second saver, another JVM) stored a checkpoint of the same thread after the head this saver last
 * read or wrote: it took the version this saver tried to take, or moved the thread on while this saver's graph waited.
 * The checkpoint being put was <em>not</em> written, so the thread's history never forks. Re-read the thread
 * ({@code get}/{@code getState}) and decide: continue from the other writer's checkpoint, or run again.
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

    private ThreadConflictException(String threadId, String checkpointId, long version, String message) {
        super(message);
        this.threadId = threadId;
        this.checkpointId = checkpointId;
        this.version = version;
    }

    /**
     * The put of {@code checkpointId} was based on {@code head}, which another writer superseded by {@code latest}.
     *
     * @param version the version the put would have taken
     */
    static ThreadConflictException superseded(
            String threadId, String checkpointId, long version, String head, String latest) {
        return new ThreadConflictException(
                threadId,
                checkpointId,
                version,
                "Checkpoint '" + checkpointId + "' of thread '" + threadId + "' was not saved: it continues " + head
                        + ", which this saver last read or wrote, but another writer has moved the thread on (its head"
                        + " is now " + latest + "); re-read the thread and continue from its latest checkpoint");
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
