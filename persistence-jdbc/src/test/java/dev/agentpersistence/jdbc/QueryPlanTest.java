package dev.agentpersistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.CheckpointFilter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.SqlLogger;
import org.jdbi.v3.core.statement.SqlStatements;
import org.jdbi.v3.core.statement.StatementContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * Every read the provider issues is answered through an index of the agent, never by scanning the
 * table or sorting an agent's rows: the SQL it really sends (captured from JDBI) is checked with
 * SQLite's {@code EXPLAIN QUERY PLAN}.
 */
class QueryPlanTest {
    @TempDir
    Path dir;

    @Test
    void readsUseTheAgentIndexesAndNeverSort() throws Exception {
        try (TestDatabase database = TestDatabase.sqlite(dir)) {
            var source = new SQLiteDataSource();
            source.setUrl(database.url());
            var executed = new CopyOnWriteArrayList<String>();
            Jdbi jdbi = Jdbi.create(source);
            jdbi.getConfig(SqlStatements.class).setSqlLogger(new SqlLogger() {
                @Override
                public void logAfterExecution(StatementContext context) {
                    String sql = context.getParsedSql().getSql();
                    if (sql.startsWith("SELECT")) {
                        executed.add(sql);
                    }
                }
            });
            try (var provider = JdbcStorageProvider.builder().config(database.config()).jdbi(jdbi).build()) {
                String agent = "planned";
                for (long v = 0; v < 5; v++) {
                    provider.saveCheckpoint(agent, JdbcProviderTestBase.checkpoint(agent, v));
                }
                executed.clear();
                var everything = CheckpointFilter.builder().nodeId("even").metadata("parity", "even")
                        .createdAfter(Instant.EPOCH).createdBefore(Instant.parse("2100-01-01T00:00:00Z"))
                        .maxVersion(4L).includeTombstones(false).build();
                provider.getCheckpoints(agent);
                provider.getCheckpoints(agent, everything);
                provider.getCheckpoints(agent, everything.toBuilder().limit(2).build());
                provider.getLatestCheckpoint(agent);
                provider.getLatestCheckpoint(agent, everything);
                provider.getCheckpoint(agent, "cp-1");
            }
            assertThat(executed).hasSize(6);
            for (String sql : executed) {
                List<String> plan = plan(database, sql);
                assertThat(plan).as("plan of %s", sql)
                        .noneMatch(step -> step.startsWith("SCAN"))
                        .noneMatch(step -> step.contains("TEMP B-TREE"))
                        .anyMatch(step -> step.startsWith("SEARCH c USING INDEX " + database.tables().versionIndex())
                                || step.startsWith("SEARCH c USING INDEX sqlite_autoindex_" + database.tables().checkpoints()));
                if (sql.contains("EXISTS")) {
                    assertThat(plan).as("plan of %s", sql)
                            .anyMatch(step -> step.startsWith("SEARCH m") && step.contains("USING INDEX " + database.tables().metadataIndex()));
                }
            }
        }
    }

    private static List<String> plan(TestDatabase database, String sql) throws SQLException {
        try (var connection = database.connect();
             var statement = connection.prepareStatement("EXPLAIN QUERY PLAN " + sql);
             var rows = statement.executeQuery()) {
            var steps = new ArrayList<String>();
            while (rows.next()) {
                steps.add(rows.getString("detail"));
            }
            return steps;
        }
    }
}
