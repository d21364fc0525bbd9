package dev.agentpersistence;

/**
 * The storage is set up so that it cannot work, and retrying will not change that: a directory the process may not
 * write, a JDBC driver missing from the class path, a malformed URL, a database that does not exist, a setting with a
 * value it does not accept, no region for S3; credentials the server refuses are the subtype
 * {@link StorageAuthenticationException}. Unlike {@link StorageUnavailableException} this is not transient and is
 * raised at once; the message names the location or setting and what is wrong (secrets hidden), and the setup has to be
 * fixed before the provider is opened again.
 */
public class StorageConfigurationException extends PersistenceException {
    public StorageConfigurationException(String message) {
        super(message);
    }

    public StorageConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
