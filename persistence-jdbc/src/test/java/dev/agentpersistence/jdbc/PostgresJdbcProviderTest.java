package dev.agentpersistence.jdbc;

import java.nio.file.Path;

/** JDBC-specific behaviour on the real PostgreSQL server. */
class PostgresJdbcProviderTest extends JdbcProviderTestBase {
    @Override
    TestDatabase openDatabase(Path dir) {
        return TestDatabase.postgres();
    }
}
