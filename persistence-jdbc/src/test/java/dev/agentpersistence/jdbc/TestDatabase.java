package dev.agentpersistence.jdbc;

import dev.agentpersistence.jdbc.internal.Tables;
import dev.agentpersistence.storage.StorageShell;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One test's tables on one database: a random table prefix, so runs and tests never see each other's data, dropped
 * again by {@link #close()}.
 */
final class TestDatabase implements AutoCloseable {
    private final String url;
    private final String prefix;

    private TestDatabase(String url) {
        this.url = url;
        this.prefix = randomPrefix();
    }

    static TestDatabase postgres() {
        return new TestDatabase(TestServers.postgresUrl());
    }

    static TestDatabase mariaDb() {
        return new TestDatabase(TestServers.mariaDbUrl());
    }

    static TestDatabase sqlite(Path dir) {
        return new TestDatabase("jdbc:sqlite:" + dir.resolve("checkpoints.db"));
    }

    static TestDatabase h2(Path dir) {
        return new TestDatabase("jdbc:h2:file:" + dir.resolve("checkpoints"));
    }

    /** A prefix no other run uses: {@code t} and 12 random hex digits. */
    static String randomPrefix() {
        byte[] bytes = new byte[6];
        ThreadLocalRandom.current().nextBytes(bytes);
        return "t" + HexFormat.of().formatHex(bytes) + "_";
    }

    String url() {
        return url;
    }

    String prefix() {
        return prefix;
    }

    Tables tables() {
        return new Tables(prefix);
    }

    /** Settings for a small pool over this test's tables. */
    JdbcStorageConfig config() {
        return JdbcStorageConfig.custom()
                .url(url)
                .tablePrefix(prefix)
                .poolSize(4)
                .connectionTimeout(Duration.ofSeconds(10))
                .build();
    }

    StorageShell newProvider() {
        return JdbcStorage.builder(config()).build();
    }

    /** A provider with a time to live and a clock of the test's choosing. */
    /** A provider over this database writing with {@code settings}. */
    StorageShell newProvider(dev.agentpersistence.storage.StorageSettings settings) {
        return JdbcStorage.builder(config()).settings(settings).build();
    }

    StorageShell newProvider(Duration ttl, java.time.Clock clock) {
        return JdbcStorage.builder(config())
                .settings(dev.agentpersistence.storage.StorageSettings.custom()
                        .ttl(ttl)
                        .build())
                .clock(clock)
                .build();
    }

    /**
     * A store nobody created: for SQLite a database file that does not exist in {@code dir}, elsewhere a table prefix
     * no table of this database has.
     */
    dev.agentpersistence.tck.AbsentStore absent(Path dir) {
        boolean sqlite = url.startsWith("jdbc:sqlite:");
        Path file = dir.resolve("absent-" + randomPrefix() + "checkpoints.db");
        String absentUrl = sqlite ? "jdbc:sqlite:" + file : url;
        String absentPrefix = randomPrefix();
        return new dev.agentpersistence.tck.AbsentStore() {
            @Override
            public StorageShell open(dev.agentpersistence.storage.StorageSettings settings) {
                return JdbcStorage.builder(JdbcStorageConfig.custom()
                                .url(absentUrl)
                                .tablePrefix(absentPrefix)
                                .poolSize(2)
                                .connectionTimeout(Duration.ofSeconds(10))
                                .build())
                        .settings(settings)
                        .build();
            }

            @Override
            public boolean exists() throws SQLException {
                if (sqlite) {
                    return java.nio.file.Files.exists(file);
                }
                return !tablesWithPrefix(absentPrefix).isEmpty();
            }
        };
    }

    /** The names of this database's tables starting with {@code prefix}, in any case. */
    java.util.List<String> tablesWithPrefix(String prefix) throws SQLException {
        var found = new java.util.ArrayList<String>();
        try (var connection = connect();
                var tables = connection.getMetaData().getTables(null, null, "%", new String[] {"TABLE"})) {
            while (tables.next()) {
                String name = tables.getString("TABLE_NAME");
                if (name.toLowerCase(java.util.Locale.ROOT).startsWith(prefix.toLowerCase(java.util.Locale.ROOT))) {
                    found.add(name);
                }
            }
        }
        return found;
    }

    /** A plain connection, outside any provider. */
    Connection connect() throws SQLException {
        return DriverManager.getConnection(url);
    }

    /** Every column of every row of this test's tables, as bytes (text columns in UTF-8), for at-rest checks. */
    byte[] dump() throws SQLException {
        Tables t = tables();
        var out = new java.io.ByteArrayOutputStream();
        try (var connection = connect();
                var statement = connection.createStatement()) {
            for (String table : java.util.List.of(
                    t.checkpoints(), t.metadata(), t.historySegments(), t.checkpointExpiry(), t.queueItems())) {
                try (var rows = statement.executeQuery("SELECT * FROM " + table)) {
                    var columns = rows.getMetaData();
                    while (rows.next()) {
                        for (int c = 1; c <= columns.getColumnCount(); c++) {
                            boolean binary = switch (columns.getColumnType(c)) {
                                case java.sql.Types.BINARY,
                                        java.sql.Types.VARBINARY,
                                        java.sql.Types.LONGVARBINARY,
                                        java.sql.Types.BLOB -> true;
                                default -> false;
                            };
                            String text = binary ? null : rows.getString(c);
                            byte[] bytes = binary
                                    ? rows.getBytes(c)
                                    : text == null ? null : text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                            out.writeBytes(bytes == null ? new byte[0] : bytes);
                            out.write('|');
                        }
                    }
                }
            }
        }
        return out.toByteArray();
    }

    /** Drops this test's tables. */
    @Override
    public void close() throws SQLException {
        Tables t = tables();
        try (var connection = connect();
                var statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + t.queueItems());
            statement.execute("DROP TABLE IF EXISTS " + t.historySegments());
            statement.execute("DROP TABLE IF EXISTS " + t.checkpointExpiry());
            statement.execute("DROP TABLE IF EXISTS " + t.metadata());
            statement.execute("DROP TABLE IF EXISTS " + t.checkpoints());
            statement.execute("DROP TABLE IF EXISTS " + t.schemaVersion());
        }
    }
}
