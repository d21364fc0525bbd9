package dev.agentpersistence.jdbc;

import java.nio.file.Path;

/** The kit writing with every layer on the real PostgreSQL server. */
class PostgresEveryLayerTest extends JdbcEveryLayerTestBase {
    @Override
    TestDatabase openDatabase(Path dir) {
        return TestDatabase.postgres();
    }
}
