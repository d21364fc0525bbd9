package dev.agentpersistence.benchmarks.backend;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The backends benchmarked, by the name used in {@code -p backend=...}. */
public enum Backend {
    INMEMORY("inmemory", new InMemoryDriver()),
    FILE("file", new FileDriver(true, true)),
    FILE_NOFSYNC("file-nofsync", new FileDriver(false, true)),
    /** The file provider writing the form of earlier releases (one file per checkpoint), fsync on. */
    FILE_PER_CHECKPOINT("file-per-checkpoint", new FileDriver(true, false)),
    SQLITE("sqlite", JdbcDriver.sqlite()),
    POSTGRESQL("postgresql", JdbcDriver.postgresql()),
    MARIADB("mariadb", JdbcDriver.mariadb()),
    REDIS("redis", new RedisDriver()),
    S3("s3", new S3Driver());

    private final String id;
    private final BackendDriver driver;

    Backend(String id, BackendDriver driver) {
        this.id = id;
        this.driver = driver;
    }

    /** The backend named {@code id}. */
    public static Backend of(String id) {
        for (Backend backend : values()) {
            if (backend.id.equals(id)) {
                return backend;
            }
        }
        throw new IllegalArgumentException("Unknown backend '" + id + "'; known: "
                + Arrays.stream(values()).map(Backend::id).collect(Collectors.joining(", ")));
    }

    public String id() {
        return id;
    }

    public BackendDriver driver() {
        return driver;
    }
}
