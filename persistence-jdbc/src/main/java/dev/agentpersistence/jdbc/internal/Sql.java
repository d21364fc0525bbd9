package dev.agentpersistence.jdbc.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Plain JDBC statements on a connection the caller owns: values bound in order to {@code ?} placeholders (a
 * {@code byte[]} as bytes, {@link #NULL_BIGINT} as a typed null, anything else as an object), each statement prepared
 * and closed in the call. Failures are thrown as they come; {@link JdbcDatabase} classifies and retries them.
 */
final class Sql {
    /** A null bound to a {@code BIGINT} column. */
    static final Object NULL_BIGINT = new TypedNull(Types.BIGINT);

    private Sql() {}

    /** Reads one row of a result set. */
    @FunctionalInterface
    interface Row<T> {
        /** The value of the row {@code rows} stands on. */
        T map(ResultSet rows) throws SQLException;
    }

    /** Runs {@code sql}, which takes no values and returns no rows. */
    static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** Runs an {@code INSERT}, {@code UPDATE} or {@code DELETE}; returns the rows it changed. */
    static int update(Connection connection, String sql, Object... values) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            bind(statement, Arrays.asList(values));
            return statement.executeUpdate();
        }
    }

    /** Every row {@code sql} selects, read by {@code row}. */
    static <T> List<T> list(Connection connection, String sql, Row<T> row, Object... values) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            bind(statement, Arrays.asList(values));
            var found = new ArrayList<T>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    found.add(row.map(rows));
                }
            }
            return found;
        }
    }

    /** The first row {@code sql} selects, read by {@code row}. */
    static <T> Optional<T> first(Connection connection, String sql, Row<T> row, Object... values) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            bind(statement, Arrays.asList(values));
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? Optional.ofNullable(row.map(rows)) : Optional.empty();
            }
        }
    }

    /**
     * The number in the first column of the first row {@code sql} selects; empty when there is no row or it is null.
     */
    static Optional<Long> number(Connection connection, String sql, Object... values) throws SQLException {
        return first(
                connection,
                sql,
                rows -> {
                    long value = rows.getLong(1);
                    return rows.wasNull() ? null : value;
                },
                values);
    }

    /** {@code first}, every element of {@code list}, then {@code after}: the values of a statement with an IN list. */
    static Object[] values(Object first, List<?> list, Object... after) {
        var all = new Object[1 + list.size() + after.length];
        all[0] = first;
        for (int i = 0; i < list.size(); i++) {
            all[1 + i] = list.get(i);
        }
        System.arraycopy(after, 0, all, 1 + list.size(), after.length);
        return all;
    }

    /** {@code count} placeholders separated by commas, for an {@code IN} list. */
    static String placeholders(int count) {
        return String.join(", ", Collections.nCopies(count, "?"));
    }

    /** Binds {@code values} in order, from the first placeholder on. */
    static void bind(PreparedStatement statement, List<?> values) throws SQLException {
        for (int i = 0; i < values.size(); i++) {
            Object value = values.get(i);
            if (value instanceof byte[] bytes) {
                statement.setBytes(i + 1, bytes);
            } else if (value instanceof TypedNull typed) {
                statement.setNull(i + 1, typed.sqlType());
            } else {
                statement.setObject(i + 1, value);
            }
        }
    }

    /** A null of a column type the driver must be told. */
    private record TypedNull(int sqlType) {}
}
