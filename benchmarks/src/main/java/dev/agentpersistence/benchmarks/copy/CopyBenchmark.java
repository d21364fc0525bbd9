package dev.agentpersistence.benchmarks.copy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpersistence.Message;
import dev.agentpersistence.benchmarks.fixture.Fixtures;
import dev.agentpersistence.cli.PersistenceCli;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code agent-persistence copy} from SQLite to PostgreSQL against the raw drivers copying the same rows in batches.
 * Not JMH: one run of each, wall time and peak heap.
 *
 * <pre>
 * java -Xmx256m -cp benchmarks/target/benchmarks.jar dev.agentpersistence.benchmarks.copy.CopyBenchmark \
 *     [checkpoints=100000] [agents=100] [threads=4] [PostgreSQL JDBC URL of the target]
 * </pre>
 *
 * The source is a SQLite file under {@code benchmarks/target/copy-benchmark/} filled once through the provider found by
 * discovery (default settings: checksum, compression of large documents, incremental history), {@code checkpoints /
 * agents} checkpoints per agent, each with a 10-message history (the fixture of the other benchmarks). Then:
 *
 * <ol>
 *   <li><b>raw</b>: plain JDBC reads every row of the provider's three tables (checkpoints, their metadata, history
 *       segments) from SQLite and inserts them into PostgreSQL tables of the same columns with
 *       {@code addBatch}/{@code executeBatch}, 500 rows and one transaction per batch;
 *   <li><b>copy</b>: the command line's {@code copy --from jdbc:sqlite:… --to jdbc:postgresql:… --threads N}, in
 *       process, which also verifies the target (count and SHA-256 per agent) before it returns;
 *   <li><b>again</b>: the same copy once more, which finds everything there and only reads and verifies.
 * </ol>
 *
 * Every table is created under a prefix of its own and dropped at the end.
 */
public final class CopyBenchmark {
    private static final int MESSAGES = 10;
    private static final int BATCH = 500;
    private static final List<String> TABLES = List.of("checkpoints", "checkpoint_metadata", "history_segments");

    private CopyBenchmark() {}

    public static void main(String[] args) throws Exception {
        int checkpoints = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int agents = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        String postgres = args.length > 3
                ? args[3]
                : System.getenv()
                        .getOrDefault(
                                "AGENT_PERSISTENCE_TEST_POSTGRES_URL",
                                "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
        Path directory = Files.createDirectories(Path.of("benchmarks", "target", "copy-benchmark"));
        Path sqlite = directory.resolve("source-" + checkpoints + "x" + agents + ".db");
        String source = "jdbc:sqlite:" + sqlite.toAbsolutePath();
        load(sqlite, source, checkpoints, agents);
        String run =
                Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36).substring(0, 6);

        System.out.printf(
                Locale.ROOT,
                "copy of %,d checkpoints (%d agents, %d messages each), SQLite -> PostgreSQL, max heap %d MiB%n",
                checkpoints,
                agents,
                MESSAGES,
                Runtime.getRuntime().maxMemory() >> 20);
        String rawPrefix = "copyraw_" + run + "_";
        String ourPrefix = "copycli_" + run + "_";
        try {
            resetPeakHeap();
            long start = System.nanoTime();
            long rows = rawCopy(source, postgres, rawPrefix);
            double raw = (System.nanoTime() - start) / 1e9;
            long rawHeap = peakHeap();
            System.out.printf(
                    Locale.ROOT, "raw JDBC batches: %,d rows in %.1f s, peak heap %d MiB%n", rows, raw, rawHeap >> 20);

            resetPeakHeap();
            start = System.nanoTime();
            JsonNode result = cliCopy(source, postgres, ourPrefix, threads);
            double copy = (System.nanoTime() - start) / 1e9;
            long copyHeap = peakHeap();
            System.out.printf(
                    Locale.ROOT,
                    "agent-persistence copy (--threads %d): %,d checkpoints in %.1f s (%.0f/s, verified: %s), peak "
                            + "heap %d MiB%n",
                    threads,
                    result.get("copied").asLong(),
                    copy,
                    result.get("copied").asLong() / copy,
                    result.get("verified").asBoolean(),
                    copyHeap >> 20);
            start = System.nanoTime();
            JsonNode again = cliCopy(source, postgres, ourPrefix, threads);
            double rerun = (System.nanoTime() - start) / 1e9;
            System.out.printf(
                    Locale.ROOT,
                    "the same copy again (nothing to write: reads both sides and verifies): %.1f s, %d copied%n",
                    rerun,
                    again.get("copied").asLong());
            System.out.printf(
                    Locale.ROOT,
                    "| %,d × %d messages | %d | %.1f s | %.1f s | %.1f× | %.1f s | %d MiB | %d MiB |%n",
                    checkpoints,
                    MESSAGES,
                    threads,
                    raw,
                    copy,
                    copy / raw,
                    rerun,
                    rawHeap >> 20,
                    copyHeap >> 20);
        } finally {
            drop(postgres, rawPrefix);
            drop(postgres, ourPrefix);
        }
    }

    private static void load(Path file, String source, int checkpoints, int agents) throws SQLException {
        Path complete = Path.of(file + ".complete");
        if (Files.exists(complete)) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        long start = System.nanoTime();
        try (var provider = StorageUri.parse(source + "?synchronous=OFF&journal_mode=WAL", ProviderConfig.empty())
                .open()) {
            int perAgent = checkpoints / agents;
            for (int agent = 0; agent < agents; agent++) {
                String agentId = "agent-" + agent;
                List<Message> history = Fixtures.history(MESSAGES);
                for (int version = 0; version < perAgent; version++) {
                    provider.saveCheckpoint(agentId, Fixtures.checkpoint(agentId, version, history));
                }
            }
        }
        try {
            Files.createFile(complete);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        System.out.printf(Locale.ROOT, "loaded the source in %.1f s%n", (System.nanoTime() - start) / 1e9);
    }

    private static long rawCopy(String source, String postgres, String prefix) throws SQLException {
        long rows = 0;
        try (Connection from = DriverManager.getConnection(source);
                Connection to = DriverManager.getConnection(postgres)) {
            to.setAutoCommit(false);
            for (String table : TABLES) {
                rows += copyTable(from, "agent_" + table, to, prefix + table);
            }
        }
        return rows;
    }

    private static long copyTable(Connection from, String table, Connection to, String target) throws SQLException {
        try (var select = from.createStatement();
                var rows = select.executeQuery("SELECT * FROM " + table)) {
            var meta = rows.getMetaData();
            int columns = meta.getColumnCount();
            var definition = new StringBuilder();
            var placeholders = new StringBuilder();
            for (int column = 1; column <= columns; column++) {
                String type = meta.getColumnTypeName(column).toUpperCase(Locale.ROOT);
                definition
                        .append(column > 1 ? ", " : "")
                        .append(meta.getColumnName(column))
                        .append(' ')
                        .append(
                                type.contains("BLOB") || type.contains("BYTE")
                                        ? "BYTEA"
                                        : type.contains("INT") ? "BIGINT" : "TEXT");
                placeholders.append(column > 1 ? ", " : "").append('?');
            }
            try (var create = to.createStatement()) {
                create.execute("CREATE TABLE " + target + " (" + definition + ")");
            }
            to.commit();
            long count = 0;
            try (var insert = to.prepareStatement("INSERT INTO " + target + " VALUES (" + placeholders + ")")) {
                while (rows.next()) {
                    for (int column = 1; column <= columns; column++) {
                        insert.setObject(column, rows.getObject(column));
                    }
                    insert.addBatch();
                    if (++count % BATCH == 0) {
                        insert.executeBatch();
                        to.commit();
                    }
                }
                insert.executeBatch();
                to.commit();
            }
            return count;
        }
    }

    private static JsonNode cliCopy(String source, String postgres, String prefix, int threads) throws Exception {
        var out = new StringWriter();
        var err = new StringWriter();
        int code = PersistenceCli.execute(
                new String[] {
                    "copy",
                    "--from",
                    source,
                    "--to",
                    postgres,
                    "--to-set",
                    "agent.persistence.jdbc.table-prefix=" + prefix,
                    "--threads",
                    Integer.toString(threads),
                    "--json"
                },
                new PrintWriter(out),
                new PrintWriter(err));
        if (code != 0) {
            throw new IllegalStateException("copy failed with exit code " + code + ": " + err);
        }
        return new ObjectMapper().readTree(out.toString());
    }

    private static void drop(String postgres, String prefix) throws SQLException {
        try (Connection connection = DriverManager.getConnection(postgres);
                var statement = connection.createStatement();
                var tables = statement.executeQuery(
                        "SELECT tablename FROM pg_tables WHERE tablename LIKE '" + prefix + "%'")) {
            var names = new java.util.ArrayList<String>();
            while (tables.next()) {
                names.add(tables.getString(1));
            }
            try (var drop = connection.createStatement()) {
                for (String name : names) {
                    drop.execute("DROP TABLE IF EXISTS " + name + " CASCADE");
                }
            }
        }
    }

    private static void resetPeakHeap() {
        System.gc();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    private static long peakHeap() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }
}
