package dev.agentpersistence.benchmarks.backend;

import java.net.URI;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where one benchmark run keeps its data, read from system properties that the launcher hands to every forked JVM.
 * Every name in a backend (directory, table prefix, key prefix, bucket) includes the run id, so runs never see each
 * other's data, and the launcher removes it all at the end.
 *
 * @param runId lower-case letters and digits, unique per run
 * @param dataDir where file-based backends (file provider, SQLite, peers) keep their files
 * @param postgresUrl JDBC URL of PostgreSQL, with credentials
 * @param mariaDbUrl JDBC URL of MariaDB, with credentials
 * @param redisUri URI of Redis
 * @param s3Endpoint URL of the S3 server the launcher started, if any
 */
public record BenchSettings(
        String runId, Path dataDir, String postgresUrl, String mariaDbUrl, String redisUri, Optional<URI> s3Endpoint) {
    public static final String RUN_ID = "agent.persistence.bench.run-id";
    public static final String DATA_DIR = "agent.persistence.bench.data-dir";
    public static final String POSTGRES_URL = "agent.persistence.bench.postgres-url";
    public static final String MARIADB_URL = "agent.persistence.bench.mariadb-url";
    public static final String REDIS_URI = "agent.persistence.bench.redis-uri";
    public static final String S3_ENDPOINT = "agent.persistence.bench.s3-endpoint";

    /** Access key of the S3 server the launcher starts. */
    public static final String S3_ACCESS_KEY = "bench-access-key";
    /** Secret key of the S3 server the launcher starts. */
    public static final String S3_SECRET_KEY = "bench-secret-key";

    private static final String POSTGRES_DEFAULT = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
    private static final String MARIADB_DEFAULT = "jdbc:mariadb://127.0.0.1:3306/test?user=root";
    private static final String REDIS_DEFAULT = "redis://127.0.0.1:6379";

    public BenchSettings {
        Objects.requireNonNull(runId, "runId");
        if (!runId.matches("[a-z0-9]{1,12}")) {
            throw new IllegalArgumentException("run id must be 1 to 12 lower-case letters or digits: '" + runId + "'");
        }
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(postgresUrl, "postgresUrl");
        Objects.requireNonNull(mariaDbUrl, "mariaDbUrl");
        Objects.requireNonNull(redisUri, "redisUri");
        Objects.requireNonNull(s3Endpoint, "s3Endpoint");
    }

    /** A run id that names nothing of another run: {@code prefix} and seven random base-36 characters. */
    public static String newRunId(String prefix) {
        var random = new SecureRandom();
        var id = new StringBuilder(prefix);
        for (int i = 0; i < 7; i++) {
            id.append(Character.forDigit(random.nextInt(36), 36));
        }
        return id.toString();
    }

    /**
     * Settings for a new run: endpoints from system properties, else the test environment variables, else loopback
     * defaults.
     */
    public static BenchSettings forNewRun(String runId, Path dataDir, Optional<URI> s3Endpoint) {
        return new BenchSettings(
                runId,
                dataDir.toAbsolutePath().normalize(),
                setting(POSTGRES_URL, "AGENT_PERSISTENCE_TEST_POSTGRES_URL", POSTGRES_DEFAULT),
                setting(MARIADB_URL, "AGENT_PERSISTENCE_TEST_MARIADB_URL", MARIADB_DEFAULT),
                setting(REDIS_URI, "AGENT_PERSISTENCE_TEST_REDIS_URI", REDIS_DEFAULT),
                s3Endpoint);
    }

    /** The settings the launcher passed to this JVM. */
    public static BenchSettings fromSystemProperties() {
        Function<String, String> required = key -> {
            String value = System.getProperty(key);
            if (value == null) {
                throw new IllegalStateException("System property " + key + " is not set: run the benchmarks through "
                        + "dev.agentpersistence.benchmarks.BenchmarkMain (java -jar benchmarks/target/benchmarks.jar)");
            }
            return value;
        };
        return new BenchSettings(
                required.apply(RUN_ID),
                Path.of(required.apply(DATA_DIR)),
                required.apply(POSTGRES_URL),
                required.apply(MARIADB_URL),
                required.apply(REDIS_URI),
                Optional.ofNullable(System.getProperty(S3_ENDPOINT)).map(URI::create));
    }

    /** These settings as {@code -D} options for a child JVM. */
    public List<String> jvmArguments() {
        var properties = new LinkedHashMap<String, String>();
        properties.put(RUN_ID, runId);
        properties.put(DATA_DIR, dataDir.toString());
        properties.put(POSTGRES_URL, postgresUrl);
        properties.put(MARIADB_URL, mariaDbUrl);
        properties.put(REDIS_URI, redisUri);
        s3Endpoint.ifPresent(uri -> properties.put(S3_ENDPOINT, uri.toString()));
        return properties.entrySet().stream()
                .map(e -> "-D" + e.getKey() + "=" + e.getValue())
                .toList();
    }

    /** The directory of this run's files. */
    public Path runDir() {
        return dataDir.resolve(runId);
    }

    /** The table prefix of this run (provider and raw tables). */
    public String tablePrefix() {
        return "bench_" + runId + "_";
    }

    /** The Redis key prefix of this run. */
    public String redisPrefix() {
        return "agent-persistence-bench:" + runId + ":";
    }

    /** The S3 bucket of this run. */
    public String bucket() {
        return "bench-" + runId;
    }

    /** The S3 endpoint, or a clear error when the launcher started none. */
    public URI requireS3Endpoint() {
        return s3Endpoint.orElseThrow(() -> new IllegalStateException(
                "No S3 endpoint: " + S3_ENDPOINT + " is not set (the launcher starts S3Proxy and sets it)"));
    }

    /** A description without passwords. */
    public Map<String, String> describe() {
        var described = new LinkedHashMap<String, String>();
        described.put("run id", runId);
        described.put("data directory", runDir().toString());
        described.put("PostgreSQL", dev.agentpersistence.spi.ProviderConfig.redact(postgresUrl));
        described.put("MariaDB", dev.agentpersistence.spi.ProviderConfig.redact(mariaDbUrl));
        described.put("Redis", dev.agentpersistence.spi.ProviderConfig.redact(redisUri));
        described.put("S3", s3Endpoint.map(URI::toString).orElse("none"));
        return described;
    }

    private static String setting(String property, String environment, String fallback) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            value = System.getenv(environment);
        }
        return value == null || value.isBlank() ? fallback : value;
    }
}
