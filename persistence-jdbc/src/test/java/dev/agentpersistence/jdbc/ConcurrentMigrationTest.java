package dev.agentpersistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.jdbc.internal.Dialect;
import dev.agentpersistence.jdbc.internal.Dialects;
import dev.agentpersistence.jdbc.internal.Migration;
import dev.agentpersistence.jdbc.internal.SchemaMigrator;
import dev.agentpersistence.storage.StorageShell;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Several processes starting at once on a fresh prefix: every one of them migrates successfully and the schema version
 * table ends with exactly one row per version. Each contender has its own connections, as separate processes would.
 */
class ConcurrentMigrationTest {
    private static final int CONTENDERS = 4;

    @TempDir
    Path dir;

    private TestDatabase open(String database) {
        return switch (database) {
            case "sqlite" -> TestDatabase.sqlite(dir);
            case "h2" -> TestDatabase.h2(dir);
            case "postgres" -> TestDatabase.postgres();
            case "mariadb" -> TestDatabase.mariaDb();
            default -> throw new IllegalArgumentException(database);
        };
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"sqlite", "h2", "postgres", "mariadb"})
    void providersStartingTogetherAllSucceed(String name) throws Exception {
        try (TestDatabase database = open(name)) {
            var providers = new ArrayList<StorageShell>();
            try {
                for (int i = 0; i < CONTENDERS; i++) {
                    providers.add(database.newProvider());
                }
                var barrier = new CyclicBarrier(CONTENDERS);
                List<Integer> counts = race(providers.stream()
                        .<Callable<Integer>>map(p -> () -> {
                            barrier.await(10, TimeUnit.SECONDS);
                            return p.listAgents().size();
                        })
                        .toList());
                assertThat(counts).containsOnly(0);
            } finally {
                providers.forEach(StorageShell::close);
            }
            assertThat(versionRows(database))
                    .containsExactlyElementsOf(
                            versions(Dialects.forUrl(database.url()).ddl().migrations(database.tables())));
        }
    }

    private static List<Integer> versions(List<Migration> migrations) {
        return migrations.stream().map(Migration::version).toList();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"sqlite", "h2", "postgres", "mariadb"})
    void aLaterMigrationIsAppliedOnceOnTopOfTheRecordedOnes(String name) throws Exception {
        try (TestDatabase database = open(name)) {
            Dialect dialect = Dialects.forUrl(database.url());
            var tables = database.tables();
            var config = database.config();
            List<Migration> first = dialect.ddl().migrations(tables);
            var extra = new Migration(
                    first.size() + 1,
                    "test: an extra table",
                    List.of("CREATE TABLE IF NOT EXISTS " + tables.prefix()
                            + "extra (id INTEGER NOT NULL PRIMARY KEY)"));
            var both = new ArrayList<>(first);
            both.add(extra);
            try {
                try (var connection = database.connect()) {
                    assertThat(new SchemaMigrator(dialect, tables, config, first).migrate(connection))
                            .containsExactlyElementsOf(versions(first));
                }
                var barrier = new CyclicBarrier(CONTENDERS);
                var contenders = new ArrayList<Callable<List<Integer>>>();
                for (int i = 0; i < CONTENDERS; i++) {
                    contenders.add(() -> {
                        try (var own = database.connect()) {
                            barrier.await(10, TimeUnit.SECONDS);
                            return new SchemaMigrator(dialect, tables, config, both).migrate(own);
                        }
                    });
                }
                List<List<Integer>> applied = race(contenders);
                assertThat(applied.stream().flatMap(List::stream).toList())
                        .as("exactly one contender recorded the extra version")
                        .containsExactly(extra.version());
                assertThat(versionRows(database)).containsExactlyElementsOf(versions(both));
            } finally {
                try (var connection = database.connect();
                        var statement = connection.createStatement()) {
                    statement.execute("DROP TABLE IF EXISTS " + tables.prefix() + "extra");
                }
            }
        }
    }

    private static <T> List<T> race(List<Callable<T>> tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        try {
            var results = new ArrayList<T>();
            for (Future<T> future : pool.invokeAll(tasks, 60, TimeUnit.SECONDS)) {
                results.add(future.get());
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<Integer> versionRows(TestDatabase database) throws Exception {
        try (var connection = database.connect();
                var statement = connection.createStatement();
                var rows = statement.executeQuery(
                        "SELECT version FROM " + database.tables().schemaVersion() + " ORDER BY version")) {
            var versions = new ArrayList<Integer>();
            while (rows.next()) {
                versions.add(rows.getInt(1));
            }
            return versions;
        }
    }
}
