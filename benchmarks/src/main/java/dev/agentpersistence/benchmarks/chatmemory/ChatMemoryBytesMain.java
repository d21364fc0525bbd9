package dev.agentpersistence.benchmarks.chatmemory;

import dev.agentpersistence.benchmarks.chatmemory.ChatMemoryWorkload.Result;
import dev.agentpersistence.benchmarks.chatmemory.MeasuredChatMemory.Database;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * Bytes written by Spring AI's JDBC chat memory repository and by ours for the same conversation
 * ({@link ChatMemoryWorkload}), on SQLite and PostgreSQL, with the whole conversation in memory and with Spring AI's
 * default window of 20 messages. Prints a markdown table and writes it to
 * {@code benchmarks/target/benchmark-results/chat-memory-<time>.md}.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.agentpersistence.benchmarks.chatmemory.ChatMemoryBytesMain \
 *     [--turns=200] [--databases=sqlite,postgresql] [--windows=0,20]
 * </pre>
 *
 * PostgreSQL is found like the other benchmarks: {@code agent.persistence.bench.postgres-url}, else
 * {@code AGENT_PERSISTENCE_TEST_POSTGRES_URL}, else {@code jdbc:postgresql://127.0.0.1:5432/test?user=postgres}. Each
 * store first runs a 30-turn warm-up conversation that is not counted.
 */
public final class ChatMemoryBytesMain {
    private static final int WARM_UP_TURNS = 30;

    private ChatMemoryBytesMain() {}

    public static void main(String[] args) throws Exception {
        int turns = Integer.parseInt(option(args, "turns", "200"));
        List<Database> databases = Arrays.stream(
                        option(args, "databases", "sqlite,postgresql").split(","))
                .map(name -> Database.valueOf(name.trim().toUpperCase(Locale.ROOT)))
                .toList();
        List<Integer> windows = Arrays.stream(option(args, "windows", "0,20").split(","))
                .map(String::trim)
                .map(Integer::parseInt)
                .toList();
        String postgresUrl = postgresUrl();
        String runId = Long.toString(System.currentTimeMillis(), 36);
        Path dir = Path.of("benchmarks/target/chat-memory", runId).toAbsolutePath();

        List<String> rows = new ArrayList<>();
        for (Database database : databases) {
            for (int window : windows) {
                rows.addAll(measure(database, window, turns, postgresUrl, dir.resolve(database + "-" + window), runId));
            }
        }
        String table = table(turns, rows);
        System.out.println(table);
        Path results = Path.of("benchmarks/target/benchmark-results");
        Files.createDirectories(results);
        Files.writeString(results.resolve("chat-memory-" + runId + ".md"), table);
    }

    /** Both stores on one database and window; returns their two table rows. */
    static List<String> measure(Database database, int window, int turns, String postgresUrl, Path dir, String runId)
            throws Exception {
        Files.createDirectories(dir);
        var workload = new ChatMemoryWorkload(turns, window);
        String tablePrefix = "bench_chat_" + runId + "_" + window + "_";
        Measured spring = run(MeasuredChatMemory.springAi(database, postgresUrl, dir), workload, database);
        Measured ours = run(MeasuredChatMemory.ours(database, postgresUrl, dir, tablePrefix), workload, database);
        if (database == Database.POSTGRESQL) {
            dropTables(postgresUrl, tablePrefix);
        }
        String windowText = window == 0 ? "whole conversation" : window + " messages";
        double ratio = (double) spring.result.bytesWritten() / ours.result.bytesWritten();
        return List.of(
                row(database, windowText, "Spring AI JDBC", spring, "1×"),
                row(database, windowText, "agent-persistence", ours, String.format(Locale.ROOT, "%.1f× fewer", ratio)));
    }

    private record Measured(Result result, OptionalLong fileBytesWritten, OptionalLong bytesStored) {}

    private static Measured run(MeasuredChatMemory store, ChatMemoryWorkload workload, Database database)
            throws Exception {
        String warmUp = UUID.randomUUID().toString();
        String measured = UUID.randomUUID().toString();
        Result result;
        OptionalLong written;
        try (store) {
            new ChatMemoryWorkload(WARM_UP_TURNS, workload.window()).run(store, warmUp);
            OptionalLong before = database == Database.SQLITE ? ProcessIo.bytesWritten() : OptionalLong.empty();
            result = workload.run(store, measured);
            OptionalLong after = database == Database.SQLITE ? ProcessIo.bytesWritten() : OptionalLong.empty();
            written = before.isPresent() && after.isPresent()
                    ? OptionalLong.of(after.getAsLong() - before.getAsLong())
                    : OptionalLong.empty();
            store.repository().deleteByConversationId(warmUp);
            if (database == Database.POSTGRESQL) {
                store.repository().deleteByConversationId(measured);
            }
        }
        return new Measured(result, written, store.bytesStored());
    }

    private static String row(Database database, String window, String store, Measured measured, String ratio) {
        Result r = measured.result;
        int n = r.turnNanos().length;
        int edge = Math.min(20, n);
        return String.format(
                Locale.ROOT,
                "| %s | %s | %s | %s | %s | %,d | %,.0f | %,.0f | %.2f | %.2f | %s | %s |",
                database.name().toLowerCase(Locale.ROOT),
                window,
                store,
                kib(r.bytesWritten()),
                ratio,
                r.writeStatements(),
                Result.mean(r.turnBytes(), 0, edge),
                Result.mean(r.turnBytes(), n - edge, n),
                Result.median(r.turnNanos(), 0, edge) / 1e6,
                Result.median(r.turnNanos(), n - edge, n) / 1e6,
                measured.fileBytesWritten.isPresent() ? kib(measured.fileBytesWritten.getAsLong()) : "–",
                measured.bytesStored.isPresent() ? kib(measured.bytesStored.getAsLong()) : "–");
    }

    private static String table(int turns, List<String> rows) {
        int edge = Math.min(20, turns);
        var out = new StringBuilder();
        out.append("| database | memory window | store | bytes written, ")
                .append(turns)
                .append(" turns | vs Spring AI | " + "write statements | bytes per turn, first ")
                .append(edge)
                .append(" | bytes per turn, last ")
                .append(edge)
                .append(" | ms per turn (median), first ")
                .append(edge)
                .append(" | ms per turn (median), last ")
                .append(edge)
                .append(" | file bytes written (SQLite) | database file after (SQLite) |\n");
        out.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        rows.forEach(row -> out.append(row).append('\n'));
        return out.toString();
    }

    private static String kib(long bytes) {
        return String.format(Locale.ROOT, "%,.1f KiB", bytes / 1024.0);
    }

    private static void dropTables(String url, String prefix) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (var rows = connection
                    .getMetaData()
                    .getTables(connection.getCatalog(), null, prefix + "%", new String[] {"TABLE"})) {
                while (rows.next()) {
                    tables.add(rows.getString("TABLE_NAME"));
                }
            }
            for (String table : tables) {
                statement.execute("DROP TABLE IF EXISTS " + table + " CASCADE");
            }
        }
    }

    private static String postgresUrl() {
        String property = System.getProperty("agent.persistence.bench.postgres-url");
        if (property != null) {
            return property;
        }
        String env = System.getenv("AGENT_PERSISTENCE_TEST_POSTGRES_URL");
        return env != null ? env : "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
    }

    private static String option(String[] args, String name, String fallback) {
        for (String arg : args) {
            if (arg.startsWith("--" + name + "=")) {
                return arg.substring(name.length() + 3);
            }
        }
        return fallback;
    }

    /** This process's bytes written through {@code write} system calls ({@code wchar} of {@code /proc/self/io}). */
    static final class ProcessIo {
        private ProcessIo() {}

        static OptionalLong bytesWritten() {
            try {
                for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
                    if (line.startsWith("wchar:")) {
                        return OptionalLong.of(Long.parseLong(line.substring(6).trim()));
                    }
                }
                return OptionalLong.empty();
            } catch (IOException | RuntimeException e) {
                return OptionalLong.empty();
            }
        }
    }
}
