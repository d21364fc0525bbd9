package dev.agentpersistence.spi;

/**
 * An optional provider capability: checkpoints carry an expiry time set by the backend when they are saved (for example
 * a configured time to live), and the backend can delete the expired ones in one step.
 * {@link dev.agentpersistence.history.RetentionSweeper} calls {@link #deleteExpired()} on every sweep. Backends that
 * expire data by themselves (Redis) do not need it.
 */
public interface ExpiringStorage {

    /** Deletes every checkpoint whose expiry time has passed and returns how many were deleted. */
    int deleteExpired();
}
