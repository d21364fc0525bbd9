package dev.agentpersistence.benchmarks.history;

import dev.agentpersistence.benchmarks.backend.Backend;
import dev.agentpersistence.benchmarks.backend.BackendDriver;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.benchmarks.backend.Directories;
import dev.agentpersistence.benchmarks.backend.S3Server;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What the growth benchmarks share: a new run's settings, the backends that answer, where the results go and how their
 * tables write numbers.
 */
public final class GrowthResults {
    private GrowthResults() {}

    /**
     * Writes {@code table} to {@code benchmark-results/<prefix>-<time>.md} in the target directory and prints it and
     * the file's path.
     */
    public static Path write(String prefix, String table) throws IOException, URISyntaxException {
        Path results = Directories.target().resolve("benchmark-results");
        Files.createDirectories(results);
        Path file = results.resolve(
                prefix + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + ".md");
        Files.writeString(file, table);
        System.out.println(table);
        System.out.println("Results: " + file);
        return file;
    }

    /** What a benchmark does with the settings of its run. */
    @FunctionalInterface
    public interface RunBody {
        void run(BenchSettings settings) throws Exception;
    }

    /**
     * Starts S3Proxy, runs {@code body} with the settings of a new run (its bucket created), and then removes what the
     * run stored unless {@code keepData}.
     */
    public static void withNewRun(boolean keepData, RunBody body) throws Exception {
        try (S3Server s3 = S3Server.start()) {
            BenchSettings settings = newRunSettings(Optional.of(s3.endpoint()));
            s3.createBucket(settings);
            try {
                body.run(settings);
            } finally {
                if (!keepData) {
                    removeRunData(settings);
                }
            }
        }
    }

    /** Settings of a new run with a run id and data directory of its own, and S3 when given. */
    public static BenchSettings newRunSettings(Optional<URI> s3Endpoint) throws URISyntaxException {
        return BenchSettings.forNewRun(
                BenchSettings.newRunId("g"), Directories.target().resolve("bench-data"), s3Endpoint);
    }

    /** The backend {@code id} when its server answers; else empty, having said why on standard error. */
    public static Optional<Backend> available(String id, BenchSettings settings) {
        Backend backend = Backend.of(id);
        Optional<String> unavailable = backend.driver().unavailable(settings);
        if (unavailable.isPresent()) {
            System.err.println("left out " + id + ": " + unavailable.get());
            return Optional.empty();
        }
        return Optional.of(backend);
    }

    /**
     * Prints {@code header} followed by {@code rows}, one a line, and writes them to a results file named after
     * {@code prefix}.
     */
    public static void publish(String prefix, String header, List<String> rows) throws IOException, URISyntaxException {
        var table = new StringBuilder(header);
        rows.forEach(row -> table.append(row).append('\n'));
        System.out.print(table);
        write(prefix, table.toString());
    }

    /** The drivers of those of {@code ids} whose servers answer, in order; the others named on standard error. */
    public static Map<String, BackendDriver> availableDrivers(List<String> ids, BenchSettings settings) {
        var drivers = new LinkedHashMap<String, BackendDriver>();
        for (String id : ids) {
            available(id, settings).ifPresent(backend -> drivers.put(id, backend.driver()));
        }
        return drivers;
    }

    /**
     * Removes what the run {@code settings} stored in every backend and its data directory; a backend that cannot be
     * cleaned (its server gone) is named on standard error and the others are still cleaned.
     */
    public static void removeRunData(BenchSettings settings) {
        for (Backend backend : Backend.values()) {
            try {
                backend.driver().cleanUp(settings);
            } catch (RuntimeException e) {
                System.err.println("could not remove the run's data from " + backend.id() + ": " + e);
            }
        }
        Directories.deleteRecursively(settings.runDir());
    }

    public static String bytes(long bytes) {
        return bytes < 0 ? "n/a" : String.format(Locale.ROOT, "%,d", bytes);
    }

    public static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
