package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.backend.StoredDocument;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * Checkpoint rows read with plain JDBC on a handle's connection: the reads on every save and load
 * path, where JDBI's statement machinery cost more than the database's own work on an embedded
 * database. The query selects {@code agent_id, checkpoint_id, version, payload} in that order. A
 * failure is thrown as JDBI's {@link UnableToExecuteStatementException} around the
 * {@link SQLException}, so it is classified and retried like every other statement.
 */
final class RowQuery {
    private RowQuery() {
    }

    /** Every row {@code sql} selects with {@code values} bound in order. */
    static List<StoredDocument> list(Handle handle, String sql, List<Object> values) {
        try (PreparedStatement statement = prepare(handle, sql, values); ResultSet rows = statement.executeQuery()) {
            var documents = new ArrayList<StoredDocument>();
            while (rows.next()) {
                documents.add(row(rows));
            }
            return documents;
        } catch (SQLException e) {
            throw new UnableToExecuteStatementException(e, null);
        }
    }

    /** The first row {@code sql} selects with {@code values} bound in order. */
    static Optional<StoredDocument> first(Handle handle, String sql, List<Object> values) {
        try (PreparedStatement statement = prepare(handle, sql, values); ResultSet rows = statement.executeQuery()) {
            return rows.next() ? Optional.of(row(rows)) : Optional.empty();
        } catch (SQLException e) {
            throw new UnableToExecuteStatementException(e, null);
        }
    }

    private static PreparedStatement prepare(Handle handle, String sql, List<Object> values) throws SQLException {
        PreparedStatement statement = handle.getConnection().prepareStatement(sql);
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
