package dev.agentpersistence;

import java.util.Objects;

/**
 * Stands in for an exception whose message quoted a credential (a driver's or a URI parser's message repeating a
 * connection URL with its password): same stack trace, the original type's name and the message with the credential
 * replaced by {@code ****}. Built by {@link dev.agentpersistence.redaction.Redactor}; it is only ever found as the
 * cause of another exception.
 */
public final class RedactedException extends PersistenceException {
    private final String originalType;

    /**
     * @param originalType the class name of the exception this one replaces
     * @param message its message, credentials already hidden (may be {@code null})
     * @param cause its cause, credentials already hidden (may be {@code null})
     */
    public RedactedException(String originalType, String message, Throwable cause) {
        super(message, cause);
        this.originalType = Objects.requireNonNull(originalType, "originalType");
    }

    /** The class name of the exception this one replaces, e.g. {@code org.postgresql.util.PSQLException}. */
    public String originalType() {
        return originalType;
    }

    /** {@code <original type> (redacted): <message>}, so stack traces read like the original's. */
    @Override
    public String toString() {
        String message = getLocalizedMessage();
        return originalType + " (redacted)" + (message == null ? "" : ": " + message);
    }
}
