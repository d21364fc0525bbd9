package dev.agentpersistence.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Statements kept per connection: reused, bounded per connection, and dropped with closed connections. */
class PreparedStatementsTest {
    @TempDir
    Path dir;

    @Test
    void keptStatementsAreReusedAndBounded() throws SQLException {
        var statements = new PreparedStatements(() -> true);
        try (Connection connection = connect()) {
            PreparedStatement first = statements.prepare(connection, "SELECT 1");
            statements.release(connection, "SELECT 1", first, false);
            assertThat(first.isClosed()).isFalse();
            assertThat(statements.prepare(connection, "SELECT 1")).isSameAs(first);

            for (int n = 2; n <= PreparedStatements.PER_CONNECTION + 1; n++) {
                statements.prepare(connection, "SELECT " + n);
            }
            assertThat(first.isClosed())
                    .as("the least recently used text is closed")
                    .isTrue();

            PreparedStatement failing = statements.prepare(connection, "SELECT 2");
            statements.release(connection, "SELECT 2", failing, true);
            assertThat(failing.isClosed()).isTrue();
            assertThat(statements.prepare(connection, "SELECT 2"))
                    .as("prepared afresh")
                    .isNotSameAs(failing);
        }
    }

    @Test
    void statementsOfClosedConnectionsAreForgotten() throws SQLException {
        var statements = new PreparedStatements(() -> true);
        for (int n = 0; n < 5; n++) {
            try (Connection connection = connect()) {
                statements.prepare(connection, "SELECT 1");
            }
        }
        assertThat(statements.connectionsHeld()).isEqualTo(1);
    }

    @Test
    void withoutKeepingEveryStatementIsClosedAfterUse() throws SQLException {
        var statements = new PreparedStatements(() -> false);
        try (Connection connection = connect()) {
            PreparedStatement statement = statements.prepare(connection, "SELECT 1");
            statements.release(connection, "SELECT 1", statement, false);
            assertThat(statement.isClosed()).isTrue();
            assertThat(statements.connectionsHeld()).isZero();
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("statements.db"));
    }
}
