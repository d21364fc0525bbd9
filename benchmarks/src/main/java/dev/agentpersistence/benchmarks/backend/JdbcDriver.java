package dev.agentpersistence.benchmarks.backend;

import dev.agentpersistence.benchmarks.raw.RawJdbcStore;
import dev.agentpersistence.benchmarks.raw.RawStore;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.storage.StorageShell;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The JDBC provider on SQLite (a file in the run directory), PostgreSQL or MariaDB, with tables prefixed by run and
 * namespace. The raw baseline is a plain JDBC connection doing one autocommitted {@code INSERT} or one {@code SELECT}
 * by primary key on a two-column table of the same column types.
 */
final class JdbcDriver implements BackendDriver {
    private final JdbcKind kind;

    private JdbcDriver(JdbcKind kind) {
        this.kind = kind;
    }

    static JdbcDriver sqlite() {
        return new JdbcDriver(JdbcKind.SQLITE);
    }

    static JdbcDriver postgresql() {
        return new JdbcDriver(JdbcKind.POSTGRESQL);
    }

    static JdbcDriver mariadb() {
        return new JdbcDriver(JdbcKind.MARIADB);
    }

    @Override
    public StorageShell.Builder builder(BenchSettings settings, String namespace, boolean bulk, boolean incremental) {
        return JdbcStorage.builder(JdbcStorageConfig.custom()
                        .url(kind.url(settings, sqliteFile(settings, namespace), bulk))
                        .tablePrefix(tablePrefix(settings, namespace))
                        .poolSize(bulk ? Math.max(2, loadThreads()) : 2)
                        .build())
                .settings(BenchmarkedForm.settings(incremental));
    }

    @Override
    public int loadThreads() {
        return kind.loadThreads();
    }

    @Override
    public RawStore openRaw(BenchSettings settings, String namespace) {
        return new RawJdbcStore(
                kind.url(settings, sqliteFile(settings, namespace), false),
                tablePrefix(settings, namespace) + "raw",
                kind.rawTableDdl(),
                kind == JdbcKind.SQLITE);
    }

    @Override
    public long bytesStored(BenchSettings settings, String namespace) {
        if (kind == JdbcKind.SQLITE) {
            Path db = sqliteFile(settings, namespace);
            return Directories.size(db) + Directories.size(Path.of(db + "-wal"));
        }
        try (Connection connection = DriverManager.getConnection(kind.url(settings, null, false))) {
            return kind.bytesOfTables(connection, tables(connection, tablePrefix(settings, namespace)));
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot measure the tables of " + namespace + " in " + kind, e);
        }
    }

    @Override
    public void compact(BenchSettings settings, String namespace) {
        String url = kind.url(settings, sqliteFile(settings, namespace), false);
        try (Connection connection = DriverManager.getConnection(url)) {
            kind.compact(connection, tables(connection, tablePrefix(settings, namespace)));
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot compact the tables of " + namespace + " in " + kind, e);
        }
    }

    @Override
    public void afterLoad(BenchSettings settings, String namespace) {
        String url = kind.url(settings, sqliteFile(settings, namespace), false);
        try (Connection connection = DriverManager.getConnection(url)) {
            kind.analyze(connection, tables(connection, tablePrefix(settings, namespace)));
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot analyze the tables of " + namespace + " in " + kind, e);
        }
    }

    @Override
    public Optional<String> unavailable(BenchSettings settings) {
        if (kind == JdbcKind.SQLITE) {
            return Optional.empty();
        }
        var properties = new Properties();
        properties.setProperty("connectTimeout", kind == JdbcKind.POSTGRESQL ? "2" : "2000");
        try (Connection connection = DriverManager.getConnection(kind.url(settings, null, false), properties)) {
            return connection.isValid(2) ? Optional.empty() : Optional.of(kind + " does not answer");
        } catch (SQLException e) {
            return Optional.of(kind + " does not answer: " + e.getMessage());
        }
    }

    @Override
    public void cleanUp(BenchSettings settings) {
        if (kind == JdbcKind.SQLITE) {
            return; // its file goes with the run directory
        }
        try (Connection connection = DriverManager.getConnection(kind.url(settings, null, false))) {
            kind.dropTables(connection, tables(connection, settings.tablePrefix()));
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot drop the benchmark tables in " + kind, e);
        }
    }

    private static List<String> tables(Connection connection, String prefix) throws SQLException {
        var names = new ArrayList<String>();
        try (var rows =
                connection.getMetaData().getTables(connection.getCatalog(), null, null, new String[] {"TABLE"})) {
            while (rows.next()) {
                String name = rows.getString("TABLE_NAME");
                if (name.toLowerCase(java.util.Locale.ROOT).startsWith(prefix)) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    private static String tablePrefix(BenchSettings settings, String namespace) {
        return settings.tablePrefix() + namespace + "_";
    }

    private static Path sqliteFile(BenchSettings settings, String namespace) {
        return settings.runDir().resolve("sqlite-" + namespace + ".db");
    }
}
