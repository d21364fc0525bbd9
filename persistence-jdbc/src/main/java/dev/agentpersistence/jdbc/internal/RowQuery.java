package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.backend.StoredDocument;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Checkpoint rows read with plain JDBC on a connection the caller owns: the reads on every save and load path, each
 * statement prepared once per connection where the dialect keeps them ({@link PreparedStatements}). The query selects
 * {@code checkpoint_id, version, payload} in that order, of one agent's rows (the agent's id is not read back: every
 * query names it). Failures are thrown as they come; {@link JdbcDatabase} classifies and retries them.
 */
final class RowQuery {
    private RowQuery() {}

    /** Every row of {@code agentId} that {@code sql} selects with {@code values} bound in order. */
    static List<StoredDocument> list(
            PreparedStatements statements, Connection connection, String agentId, String sql, List<Object> values)
            throws SQLException {
        PreparedStatement statement = statements.prepare(connection, sql);
        boolean failed = true;
        try {
            Sql.bind(statement, values);
            var documents = new ArrayList<StoredDocument>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    documents.add(row(agentId, rows));
                }
            }
            failed = false;
            return documents;
        } finally {
            statements.release(connection, sql, statement, failed);
        }
    }

    /** The first row of {@code agentId} that {@code sql} selects with {@code values} bound in order. */
    static Optional<StoredDocument> first(
            PreparedStatements statements, Connection connection, String agentId, String sql, List<Object> values)
            throws SQLException {
        PreparedStatement statement = statements.prepare(connection, sql);
        boolean failed = true;
        try {
            Sql.bind(statement, values);
            Optional<StoredDocument> first;
            try (ResultSet rows = statement.executeQuery()) {
                first = rows.next() ? Optional.of(row(agentId, rows)) : Optional.empty();
            }
            failed = false;
            return first;
        } finally {
            statements.release(connection, sql, statement, failed);
        }
    }

    private static StoredDocument row(String agentId, ResultSet rows) throws SQLException {
        return new StoredDocument(agentId, rows.getString(1), rows.getLong(2), rows.getBytes(3));
    }
}
