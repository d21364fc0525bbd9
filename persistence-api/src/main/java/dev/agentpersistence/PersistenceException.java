package dev.agentpersistence;

/** Root of every exception agent-persistence throws. Unchecked, like all of its subclasses. */
public class PersistenceException extends RuntimeException {
    public PersistenceException(String message) {
        super(message);
    }

    public PersistenceException(String message, Throwable cause) {
        super(message, cause);
    }
}
