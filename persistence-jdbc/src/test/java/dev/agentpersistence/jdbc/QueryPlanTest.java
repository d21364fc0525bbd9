package dev.agentpersistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.CheckpointFilter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * Every read the provider issues is answered through an index of the agent, never by scanning the table or sorting an
 * agent's rows: the SQL it really sends (captured where the connection prepares it) is checked with SQLite's
 * {@code EXPLAIN QUERY PLAN}.
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
            try (var provider = JdbcStorage.builder(database.config(), recording(source, executed))
                    .build()) {
                String agent = "planned";
                for (long v = 0; v < 5; v++) {
                    provider.saveCheckpoint(agent, JdbcProviderTestBase.checkpoint(agent, v));
                }
                executed.clear();
                var everything = CheckpointFilter.builder()
                        .nodeId("even")
                        .metadata("parity", "even")
                        .createdAfter(Instant.EPOCH)
                        .createdBefore(Instant.parse("2100-01-01T00:00:00Z"))
                        .maxVersion(4L)
                        .includeTombstones(false)
                        .build();
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
                assertThat(plan)
                        .as("plan of %s", sql)
                        .noneMatch(step -> step.startsWith("SCAN"))
                        .noneMatch(step -> step.contains("TEMP B-TREE"))
                        .anyMatch(step -> step.startsWith("SEARCH c USING INDEX "
                                        + database.tables().versionIndex())
                                || step.startsWith("SEARCH c USING INDEX sqlite_autoindex_"
                                        + database.tables().checkpoints()));
                if (sql.contains("EXISTS")) {
                    assertThat(plan)
                            .as("plan of %s", sql)
                            .anyMatch(step -> step.startsWith("SEARCH m")
                                    && step.contains(
                                            "USING INDEX " + database.tables().metadataIndex()));
                }
            }
        }
    }

    /** {@code source}, recording the SQL of every {@code SELECT} its connections prepare. */
    private static DataSource recording(DataSource source, List<String> selects) {
        return (DataSource) Proxy.newProxyInstance(
                QueryPlanTest.class.getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    Object result = invoke(source, method, args);
                    if (!(result instanceof Connection connection)) {
                        return result;
                    }
                    return Proxy.newProxyInstance(
                            QueryPlanTest.class.getClassLoader(), new Class<?>[] {Connection.class}, (p, m, a) -> {
                                if (m.getName().equals("prepareStatement")
                                        && a[0] instanceof String sql
                                        && sql.startsWith("SELECT")) {
                                    selects.add(sql);
                                }
                                return invoke(connection, m, a);
                            });
                });
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
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
