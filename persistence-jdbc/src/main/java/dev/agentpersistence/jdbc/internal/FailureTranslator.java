package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.StorageAuthenticationException;
import dev.agentpersistence.StorageConfigurationException;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.redaction.Redactor;
import java.sql.SQLException;

/** Turns the final failure of a database call into the library's exception, credentials hidden. */
final class FailureTranslator {
    private final DatabaseIdentity identity;

    FailureTranslator(DatabaseIdentity identity) {
        this.identity = identity;
    }

    /** The exception for {@code failure} of {@code operation}, classified as {@code kind} after {@code attempts}. */
    PersistenceException translate(String operation, RuntimeException failure, FailureKind kind, int attempts) {
        Redactor redactor = identity.redactor();
        SQLException outer = SqlStates.find(failure).orElse(null);
        SQLException driver = SqlStates.innermost(failure).orElse(null);
        String detail = outer == null ? String.valueOf(failure.getMessage()) : outer.getMessage();
        if (driver != null && driver != outer) {
            detail += "; caused by: " + driver.getMessage();
        }
        detail = redactor.redact(detail);
        Throwable cause = redactor.redact(driver != null ? driver : failure);
        String where = identity.where();
        String reason = driver == null ? detail : redactor.redact(driver.getMessage());
        return switch (kind) {
            case REFUSED_CREDENTIALS ->
                new StorageAuthenticationException(
                        reason + " (" + where + ", " + operation + "): the server refused the credentials; a retry "
                                + "does not help: fix the user and password",
                        cause);
            case UNKNOWN_DATABASE ->
                new StorageConfigurationException(
                        reason + " (" + where + ", " + operation + "): the database named in the URL does not exist; "
                                + "a retry does not help: fix the URL or create the database",
                        cause);
            case UNAVAILABLE, CONNECTION_LOST ->
                new StorageUnavailableException(where + " is unavailable (" + operation + "): " + detail, cause);
            case STATEMENT_TOO_LARGE ->
                new StatementTooLargeException(
                        operation + " failed on " + where + ": the statement exceeds the server's size limit: "
                                + detail,
                        cause);
            case TRANSIENT ->
                new StorageUnavailableException(
                        where + " stayed busy or deadlocked through " + attempts + " attempts (" + operation + "): "
                                + detail,
                        cause);
            default ->
                new PersistenceException(operation + " failed on " + where + ": " + detail, redactor.redact(failure));
        };
    }
}
