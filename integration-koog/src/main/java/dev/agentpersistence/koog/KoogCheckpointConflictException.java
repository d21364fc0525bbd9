package dev.agentpersistence.koog;

import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.PersistenceException;

/**
 * Another writer of the same Koog session (a second agent, another JVM) stored a checkpoint with the version this one
 * tried to take, or moved the session on past the checkpoint this writer's run was on. Koog numbers a session's
 * checkpoints by reading the latest version and adding one, so two writers racing on one session pick the same number;
 * the store keeps the first and refuses the second, which is <em>not</em> written: the session's history never forks.
 * Nothing is retried, since that would splice two runs into one history: read the session's latest checkpoint and
 * decide whether to continue from it or run again.
 */
public class KoogCheckpointConflictException extends PersistenceException {
    private final String sessionId;
    private final String checkpointId;
    private final long version;

    public KoogCheckpointConflictException(
            String sessionId, String checkpointId, long version, CheckpointConflictException cause) {
        super(
                "Koog checkpoint '" + checkpointId + "' of session '" + sessionId + "' was not saved: version "
                        + version
                        + " was taken by another writer of the same session; read the session's latest checkpoint and "
                        + "continue from it",
                cause);
        this.sessionId = sessionId;
        this.checkpointId = checkpointId;
        this.version = version;
    }

    private KoogCheckpointConflictException(String sessionId, String checkpointId, long version, String message) {
        super(message);
        this.sessionId = sessionId;
        this.checkpointId = checkpointId;
        this.version = version;
    }

    /**
     * The save of {@code checkpointId} continues {@code head}, which another writer superseded by {@code latest}: this
     * run is stale.
     */
    static KoogCheckpointConflictException superseded(
            String sessionId, String checkpointId, long version, String head, String latest, boolean taken) {
        return new KoogCheckpointConflictException(
                sessionId,
                checkpointId,
                version,
                "Koog checkpoint '" + checkpointId + "' of session '" + sessionId + "' was not saved: "
                        + (taken
                                ? "version " + version + " was taken by another writer of the same session, which"
                                : "")
                        + (taken ? " moved" : "another writer of the same session moved") + " the session on from "
                        + head + ", where this run was, to " + latest + "; read the session's latest checkpoint and "
                        + "decide whether to continue from it");
    }

    /** The Koog session (run) id. */
    public String sessionId() {
        return sessionId;
    }

    /** The Koog id of the checkpoint that was not saved. */
    public String checkpointId() {
        return checkpointId;
    }

    /** The version this writer tried to take. */
    public long version() {
        return version;
    }
}
