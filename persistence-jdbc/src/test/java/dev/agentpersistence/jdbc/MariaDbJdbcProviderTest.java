package dev.agentpersistence.jdbc;

import java.nio.file.Path;

/** JDBC-specific behaviour on the real MariaDB server. */
class MariaDbJdbcProviderTest extends JdbcProviderTestBase {
    @Override
    TestDatabase openDatabase(Path dir) {
        return TestDatabase.mariaDb();
    }
}
