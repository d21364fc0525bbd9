package dev.agentpersistence;

/**
 * The storage is set up so that it cannot work, and retrying will not change that: a directory the process may not
 * write, a JDBC driver missing from the class path, no region for S3. Unlike {@link StorageUnavailableException} this
 * is not transient; the message names the location and what is missing, and the setup has to be fixed before the
 * provider is opened again.
 */
public class StorageConfigurationException extends PersistenceException {
    public StorageConfigurationException(String message) {
        super(message);
    }

    public StorageConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
