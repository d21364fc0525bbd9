package dev.agentpersistence.jdbc;

import java.nio.file.Path;

/** JDBC-specific behaviour on H2 file database in a temporary directory. */
class H2JdbcProviderTest extends JdbcProviderTestBase {
    @Override
    TestDatabase openDatabase(Path dir) {
        return TestDatabase.h2(dir);
    }
}
