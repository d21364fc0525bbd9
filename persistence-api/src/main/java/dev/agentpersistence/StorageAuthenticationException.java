package dev.agentpersistence;

/**
 * The storage server refused the credentials: a wrong password, an unknown user or role, or a user without access to
 * the database it asked for. A retry with the same settings does not help (the server answers the same way every time),
 * so this is raised at once, never after a connection timeout. The message starts with the server's own reason;
 * passwords are never part of it or of its causes.
 */
public class StorageAuthenticationException extends StorageConfigurationException {
    public StorageAuthenticationException(String message, Throwable cause) {
        super(message, cause);
    }
}
