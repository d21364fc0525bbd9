package dev.agentpersistence.backend;

import java.time.Instant;

/**
 * The expiry of a backend whose records keep their {@link StoredCheckpoint#expiresAt()}: a backend that has one returns
 * it from {@link StorageBackend#expiry()}, and only such a backend can be given a time to live. Either the store
 * removes expired records itself (then {@link #deleteExpired} returns 0) or {@link #deleteExpired} does.
 */
@FunctionalInterface
public interface Expiry {

    /**
     * Deletes the records whose expiry time is before {@code now}; returns how many. A store that removes expired
     * records itself returns 0.
     */
    int deleteExpired(Instant now);
}
