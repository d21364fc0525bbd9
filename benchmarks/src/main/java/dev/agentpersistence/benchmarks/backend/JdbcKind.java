package dev.agentpersistence.benchmarks.backend;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** What differs between the three databases: URLs, the raw table's DDL, sizes and clean-up. */
enum JdbcKind {
    SQLITE {
        @Override
        String url(BenchSettings settings, Path sqliteFile, boolean bulk) {
            return "jdbc:sqlite:" + sqliteFile + (bulk ? "?synchronous=OFF" : "");
        }

        @Override
        String rawTableDdl() {
            return "(k TEXT NOT NULL PRIMARY KEY, v BLOB NOT NULL)";
        }
    },
    POSTGRESQL {
        @Override
        String url(BenchSettings settings, Path sqliteFile, boolean bulk) {
            String url = settings.postgresUrl();
            return bulk ? url + (url.contains("?") ? "&" : "?") + "options=-c%20synchronous_commit%3Doff" : url;
        }

        @Override
        int loadThreads() {
            return 4;
        }

        @Override
        String rawTableDdl() {
            return "(k VARCHAR(256) NOT NULL PRIMARY KEY, v BYTEA NOT NULL)";
        }

        @Override
        long bytesOfTables(Connection connection, List<String> tables) throws SQLException {
            long total = 0;
            for (String table : tables) {
                try (var statement = connection.prepareStatement("SELECT pg_total_relation_size(?::regclass)")) {
                    statement.setString(1, table);
                    try (var rows = statement.executeQuery()) {
                        rows.next();
                        total += rows.getLong(1);
                    }
                }
            }
            return total;
        }

        @Override
        void dropTables(Connection connection, List<String> tables) throws SQLException {
            try (Statement statement = connection.createStatement()) {
                for (String table : tables) {
                    statement.execute("DROP TABLE IF EXISTS " + table + " CASCADE");
                }
            }
        }
    },
    MARIADB {
        @Override
        String url(BenchSettings settings, Path sqliteFile, boolean bulk) {
            return settings.mariaDbUrl();
        }

        @Override
        int loadThreads() {
            return 8;
        }

        @Override
        String rawTableDdl() {
            return "(k VARCHAR(256) NOT NULL PRIMARY KEY, v LONGBLOB NOT NULL) ENGINE=InnoDB";
        }

        @Override
        long bytesOfTables(Connection connection, List<String> tables) throws SQLException {
            long total = 0;
            try (Statement statement = connection.createStatement()) {
                for (String table : tables) {
                    statement.execute("ANALYZE TABLE " + table);
                }
            }
            for (String table : tables) {
                try (var statement = connection.prepareStatement("SELECT data_length + index_length FROM "
                        + "information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?")) {
                    statement.setString(1, table);
                    try (var rows = statement.executeQuery()) {
                        if (rows.next()) {
                            total += rows.getLong(1);
                        }
                    }
                }
            }
            return total;
        }

        @Override
        void dropTables(Connection connection, List<String> tables) throws SQLException {
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET FOREIGN_KEY_CHECKS = 0");
                for (String table : tables) {
                    statement.execute("DROP TABLE IF EXISTS " + table);
                }
                statement.execute("SET FOREIGN_KEY_CHECKS = 1");
            }
        }
    };

    /** Gathers the planner's statistics of {@code tables}. */
    void analyze(Connection connection, List<String> tables) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            if (this == SQLITE) {
                statement.execute("ANALYZE");
                return;
            }
            for (String table : tables) {
                statement.execute((this == MARIADB ? "ANALYZE TABLE " : "ANALYZE ") + table);
            }
        }
    }

    /**
     * What the database keeps of {@code tables} once tidied as a user would run it, with no provider open: SQLite
     * checkpoints its write-ahead log into the database file and truncates the log, PostgreSQL runs a plain (not
     * {@code FULL}) {@code VACUUM} on each table; MariaDB's measure runs {@code ANALYZE TABLE} itself.
     */
    void compact(Connection connection, List<String> tables) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            if (this == SQLITE) {
                statement.execute("PRAGMA wal_checkpoint(TRUNCATE)");
            } else if (this == POSTGRESQL) {
                for (String table : tables) {
                    statement.execute("VACUUM " + table);
                }
            }
        }
    }

    /** The JDBC URL; {@code bulk} relaxes per-commit durability where a connection can (fixture loading only). */
    abstract String url(BenchSettings settings, Path sqliteFile, boolean bulk);

    /** Column definitions of the raw baseline's table. */
    abstract String rawTableDdl();

    int loadThreads() {
        return 1;
    }

    long bytesOfTables(Connection connection, List<String> tables) throws SQLException {
        throw new UnsupportedOperationException(name());
    }

    void dropTables(Connection connection, List<String> tables) throws SQLException {
        throw new UnsupportedOperationException(name());
    }
}
