package dev.agentpersistence;

/**
 * The store a provider was opened read-only over does not exist: no directory, database file, table, bucket or key
 * where the configuration points. A read-only provider never creates one, and retrying will not make it appear; the
 * message names the store. A subtype of {@link StorageConfigurationException}: fix the location (or open the store for
 * writing once, which creates it).
 */
public class StorageNotFoundException extends StorageConfigurationException {
    public StorageNotFoundException(String message) {
        super(message);
    }

    public StorageNotFoundException(String message, Throwable cause) {
        super(message, cause);
    }
}
