package dev.agentpersistence.jdbc;

import java.nio.file.Path;

/** The kit with incremental histories on the real PostgreSQL server. */
class PostgresIncrementalHistoryTest extends JdbcIncrementalHistoryTestBase {
    @Override
    TestDatabase openDatabase(Path dir) {
        return TestDatabase.postgres();
    }
}
