package dev.agentpersistence.jdbc;

import java.nio.file.Path;

/** The kit writing with every layer on an SQLite file. */
class SqliteEveryLayerTest extends JdbcEveryLayerTestBase {
    @Override
    TestDatabase openDatabase(Path dir) {
        return TestDatabase.sqlite(dir);
    }
}
