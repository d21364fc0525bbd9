package dev.agentpersistence;

/**
 * The storage backend could not be reached or refused the operation for a reason outside the caller's data (server
 * down, connection lost, timeout, credentials). The driver's exception is the cause. Retrying later with the same
 * provider instance is safe.
 */
public class StorageUnavailableException extends PersistenceException {
    public StorageUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
