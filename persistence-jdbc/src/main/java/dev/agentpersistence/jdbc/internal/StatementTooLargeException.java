package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.PersistenceException;

/**
 * The server refused a statement for exceeding its size limit (MariaDB/MySQL {@code max_allowed_packet}). Never
 * retried: the same statement would fail again. The provider turns it into a
 * {@link dev.agentpersistence.CheckpointTooLargeException} when a checkpoint was being saved.
 */
public final class StatementTooLargeException extends PersistenceException {

    StatementTooLargeException(String message, Throwable cause) {
        super(message, cause);
    }
}
