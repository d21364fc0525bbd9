package dev.agentpersistence.reliability;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Every backend of every built-in provider, over storage under one directory: in-memory, file, SQLite, H2, PostgreSQL,
 * MariaDB, Redis (the shared servers, under this run's table and key prefixes) and S3 (an S3Proxy in this JVM). Close
 * it to stop the S3Proxy.
 */
final class Backends implements AutoCloseable {
    /** Table prefix on the shared database servers. */
    static final String TABLE_PREFIX = "agent_rel_";

    private final Path dir;
    private final String redisPrefix =
            "agent-persistence-rel:" + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36) + ":";
    private LocalS3 s3;

    Backends(Path dir) {
        this.dir = dir;
    }

    /** The file provider as discovery builds it: agents kept as journals. */
    Backend file() {
        Path root = dir.resolve("file");
        return new Backend(
                "file",
                "file",
                Map.of("agent.persistence.file.dir", root.toString()),
                () -> RawStore.fileJournal(root));
    }

    /** The file provider keeping new agents as one file per checkpoint. */
    Backend filePerCheckpoint() {
        Path root = dir.resolve("file-per-checkpoint");
        return new Backend(
                "file-per-checkpoint",
                "file",
                Map.of("agent.persistence.file.dir", root.toString(), "agent.persistence.file.layout", "files"),
                () -> RawStore.file(root));
    }

    Backend inMemory() {
        return new Backend("inmemory", "inmemory", Map.of(), null);
    }

    Backend sqlite() {
        String url = "jdbc:sqlite:" + dir.resolve("sqlite.db");
        return new Backend(
                "jdbc-sqlite", "jdbc", Map.of("agent.persistence.jdbc.url", url), () -> RawStore.jdbc(url, "agent_"));
    }

    Backend h2() {
        String url = "jdbc:h2:file:" + dir.resolve("h2").toAbsolutePath() + ";DB_CLOSE_DELAY=0";
        return new Backend(
                "jdbc-h2", "jdbc", Map.of("agent.persistence.jdbc.url", url), () -> RawStore.jdbc(url, "agent_"));
    }

    Backend postgres() {
        String url = SharedServers.postgres();
        return new Backend(
                "jdbc-postgresql",
                "jdbc",
                Map.of(
                        "agent.persistence.jdbc.url",
                        url,
                        "agent.persistence.jdbc.table-prefix",
                        TABLE_PREFIX,
                        "agent.persistence.jdbc.pool-size",
                        "8"),
                () -> RawStore.jdbc(url, TABLE_PREFIX));
    }

    Backend mariadb() {
        String url = SharedServers.mariadb();
        return new Backend(
                "jdbc-mariadb",
                "jdbc",
                Map.of(
                        "agent.persistence.jdbc.url",
                        url,
                        "agent.persistence.jdbc.table-prefix",
                        TABLE_PREFIX,
                        "agent.persistence.jdbc.pool-size",
                        "8"),
                () -> RawStore.jdbc(url, TABLE_PREFIX));
    }

    Backend redis() {
        String uri = SharedServers.redis();
        return new Backend(
                "redis",
                "redis",
                Map.of("agent.persistence.redis.uri", uri, "agent.persistence.redis.key-prefix", redisPrefix),
                () -> RawStore.redis(uri, redisPrefix));
    }

    Backend s3() {
        if (s3 == null) {
            try {
                s3 = LocalS3.start(dir.resolve("s3"), 0);
            } catch (Exception e) {
                throw new IllegalStateException("S3Proxy did not start", e);
            }
        }
        LocalS3 server = s3;
        return new Backend(
                "s3", "s3", LocalS3.settings(server.endpoint()), () -> RawStore.s3(server.client(), LocalS3.BUCKET));
    }

    /**
     * Every backend; server backends locate their server when listed (skipping or failing the test without one).
     * {@code -Dagent.persistence.reliability.backends=file,redis} keeps only those labels.
     */
    List<Backend> all() {
        var only = System.getProperty("agent.persistence.reliability.backends", "");
        var all = new ArrayList<Backend>();
        for (var backend : List.<java.util.function.Supplier<Backend>>of(
                this::inMemory,
                this::file,
                this::filePerCheckpoint,
                this::sqlite,
                this::h2,
                this::postgres,
                this::mariadb,
                this::redis,
                this::s3)) {
            Backend b = backend.get();
            if (only.isBlank() || List.of(only.split(",")).contains(b.label())) {
                all.add(b);
            }
        }
        return all;
    }

    /** Every backend that stores bytes (all but in-memory). */
    List<Backend> stored() {
        return all().stream().filter(Backend::hasRawAccess).toList();
    }

    @Override
    public void close() throws Exception {
        if (s3 != null) {
            s3.close();
        }
    }
}
