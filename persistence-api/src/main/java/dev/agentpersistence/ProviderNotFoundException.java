package dev.agentpersistence;

/**
 * Discovery could not pick a storage provider: the requested name is not on the class path, or several are and none was
 * chosen. The message names what was found.
 */
public class ProviderNotFoundException extends PersistenceException {
    public ProviderNotFoundException(String message) {
        super(message);
    }

    public ProviderNotFoundException(String message, Throwable cause) {
        super(message, cause);
    }
}
