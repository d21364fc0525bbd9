package dev.agentpersistence;

/**
 * The storage backend could not be reached or could not serve now for a reason that may pass: server down or starting,
 * connection refused or lost, timeout, busy. The driver's exception is the cause. Retrying later with the same provider
 * instance is safe. What a retry cannot cure (refused credentials, unknown databases, malformed URLs, bad settings) is
 * a {@link StorageConfigurationException} instead.
 */
public class StorageUnavailableException extends PersistenceException {
    public StorageUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
