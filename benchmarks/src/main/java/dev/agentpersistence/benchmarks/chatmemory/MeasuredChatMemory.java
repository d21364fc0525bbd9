package dev.agentpersistence.benchmarks.chatmemory;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.benchmarks.backend.BenchmarkedForm;
import dev.agentpersistence.benchmarks.backend.Directories;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.springai.AgentPersistenceChatMemoryRepository;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.OptionalLong;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.repository.jdbc.JdbcChatMemoryRepository;
import org.springframework.ai.chat.memory.repository.jdbc.PostgresChatMemoryRepositoryDialect;
import org.springframework.ai.chat.memory.repository.jdbc.SqliteChatMemoryRepositoryDialect;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One chat memory repository of the measurement over its own connection pool, whose writes a {@link WriteCounter}
 * counts: ours ({@link AgentPersistenceChatMemoryRepository} over the JDBC provider with the default stored form and
 * incremental history) or Spring AI's {@link JdbcChatMemoryRepository}. On SQLite each store has a file of its own (WAL
 * journal, like our provider's own pool); on PostgreSQL ours gets tables of its own and Spring AI's uses its fixed
 * table, created from Spring AI's schema.
 */
final class MeasuredChatMemory implements AutoCloseable {
    /** The databases measured. */
    enum Database {
        SQLITE,
        POSTGRESQL
    }

    private final String name;
    private final ChatMemoryRepository repository;
    private final WriteCounter counter;
    private final HikariDataSource pool;
    private final Path sqliteFile;
    private PersistenceStorageProvider<?> provider;

    private MeasuredChatMemory(
            String name,
            ChatMemoryRepository repository,
            WriteCounter counter,
            HikariDataSource pool,
            Path sqliteFile) {
        this.name = name;
        this.repository = repository;
        this.counter = counter;
        this.pool = pool;
        this.sqliteFile = sqliteFile;
    }

    /** Ours over the JDBC provider; {@code tablePrefix} keeps its tables apart on a shared server. */
    static MeasuredChatMemory ours(Database database, String postgresUrl, Path dir, String tablePrefix) {
        var counter = new WriteCounter();
        Path file = database == Database.SQLITE ? dir.resolve("ours.db") : null;
        HikariDataSource pool = pool(database, postgresUrl, file);
        var provider = JdbcStorage.builder(
                        JdbcStorageConfig.custom().tablePrefix(tablePrefix).build(), counter.wrap(pool))
                .settings(BenchmarkedForm.settings(true))
                .build();
        var store = new MeasuredChatMemory(
                "agent-persistence", AgentPersistenceChatMemoryRepository.of(provider), counter, pool, file);
        store.provider = provider;
        return store;
    }

    /** Spring AI's JDBC repository with the dialect and schema Spring AI ships for the database. */
    static MeasuredChatMemory springAi(Database database, String postgresUrl, Path dir) {
        var counter = new WriteCounter();
        Path file = database == Database.SQLITE ? dir.resolve("spring-ai.db") : null;
        HikariDataSource pool = pool(database, postgresUrl, file);
        runSchema(pool, database == Database.SQLITE ? "schema-sqlite.sql" : "schema-postgresql.sql");
        var repository = JdbcChatMemoryRepository.builder()
                .jdbcTemplate(new JdbcTemplate(counter.wrap(pool)))
                .dialect(
                        database == Database.SQLITE
                                ? new SqliteChatMemoryRepositoryDialect()
                                : new PostgresChatMemoryRepositoryDialect())
                .build();
        return new MeasuredChatMemory("Spring AI JDBC", repository, counter, pool, file);
    }

    String name() {
        return name;
    }

    ChatMemoryRepository repository() {
        return repository;
    }

    WriteCounter counter() {
        return counter;
    }

    /** The bytes of the SQLite file and its write-ahead log; empty on PostgreSQL. */
    OptionalLong bytesStored() {
        if (sqliteFile == null) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Directories.size(sqliteFile) + Directories.size(Path.of(sqliteFile + "-wal")));
    }

    @Override
    public void close() {
        if (provider != null) {
            provider.close();
        }
        pool.close();
    }

    private static HikariDataSource pool(Database database, String postgresUrl, Path sqliteFile) {
        var config = new HikariConfig();
        if (database == Database.SQLITE) {
            config.setJdbcUrl("jdbc:sqlite:" + sqliteFile);
            config.addDataSourceProperty("journal_mode", "WAL");
            config.addDataSourceProperty("busy_timeout", "10000");
            config.setMaximumPoolSize(1);
        } else {
            config.setJdbcUrl(Objects.requireNonNull(postgresUrl, "postgresUrl"));
            config.setMaximumPoolSize(2);
        }
        return new HikariDataSource(config);
    }

    private static void runSchema(HikariDataSource pool, String resource) {
        String path = "/org/springframework/ai/chat/memory/repository/jdbc/" + resource;
        try (InputStream in = JdbcChatMemoryRepository.class.getResourceAsStream(path);
                Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            if (in == null) {
                throw new IllegalStateException("Spring AI's schema " + path + " is not on the class path");
            }
            for (String sql : new String(in.readAllBytes(), StandardCharsets.UTF_8).split(";")) {
                if (!sql.isBlank()) {
                    statement.execute(sql);
                }
            }
        } catch (IOException | SQLException e) {
            throw new IllegalStateException("Cannot create Spring AI's chat memory table from " + path, e);
        }
    }
}
