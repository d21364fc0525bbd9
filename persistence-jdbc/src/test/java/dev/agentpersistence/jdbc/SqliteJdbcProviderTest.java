package dev.agentpersistence.jdbc;

import java.nio.file.Path;

/** JDBC-specific behaviour on SQLite file in a temporary directory. */
class SqliteJdbcProviderTest extends JdbcProviderTestBase {
    @Override
    TestDatabase openDatabase(Path dir) {
        return TestDatabase.sqlite(dir);
    }
}
