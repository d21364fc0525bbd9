package dev.agentpersistence.jdbc;

import java.nio.file.Path;

/** The kit with incremental histories on an SQLite file. */
class SqliteIncrementalHistoryTest extends JdbcIncrementalHistoryTestBase {
    @Override
    TestDatabase openDatabase(Path dir) {
        return TestDatabase.sqlite(dir);
    }
}
