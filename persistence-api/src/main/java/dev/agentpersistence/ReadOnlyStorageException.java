package dev.agentpersistence;

/**
 * A write (a save, a deletion, a sweep, a segment collection) was asked of a provider opened read-only
 * ({@code agent.persistence.read-only}); nothing was stored or deleted. Retrying will not help: open the store for
 * writing.
 */
public class ReadOnlyStorageException extends StorageConfigurationException {
    public ReadOnlyStorageException(String message) {
        super(message);
    }
}
