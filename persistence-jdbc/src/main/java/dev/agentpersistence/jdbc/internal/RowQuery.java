package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.backend.StoredDocument;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.sql.Connection;

/**
 * Checkpoint rows read with plain JDBC on a connection the caller owns: the reads on every save and
 * load path, where JDBI's handle and statement machinery cost more than the database's own work on
 * an embedded database. The query selects {@code agent_id, checkpoint_id, version, payload} in that
 * order. Failures are thrown as they come; {@link JdbcDatabase} classifies and retries them.
 */
final class RowQuery {
    private RowQuery() {
    }

    /** Every row {@code sql} selects with {@code values} bound in order. */
    static List<StoredDocument> list(Connection connection, String sql, List<Object> values) throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql, values); ResultSet rows = statement.executeQuery()) {
            var documents = new ArrayList<StoredDocument>();
            while (rows.next()) {
                documents.add(row(rows));
            }
            return documents;
        }
    }

    /** The first row {@code sql} selects with {@code values} bound in order. */
    static Optional<StoredDocument> first(Connection connection, String sql, List<Object> values) throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql, values); ResultSet rows = statement.executeQuery()) {
            return rows.next() ? Optional.of(row(rows)) : Optional.empty();
        }
    }

    private static PreparedStatement prepare(Connection connection, String sql, List<Object> values) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            for (int i = 0; i < values.size(); i++) {
                Object value = values.get(i);
                if (value instanceof byte[] bytes) {
                    statement.setBytes(i + 1, bytes);
                } else {
                    statement.setObject(i + 1, value);
                }
            }
            return statement;
        } catch (SQLException | RuntimeException e) {
            statement.close();
            throw e;
        }
    }

    private static StoredDocument row(ResultSet rows) throws SQLException {
        return new StoredDocument(rows.getString(1), rows.getString(2), rows.getLong(3), rows.getBytes(4));
    }
}
