package dev.agentpersistence.reliability;

import dev.agentpersistence.tck.TestServices;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A MariaDB server of its own ({@code mariadb-install-db} into a temporary directory, {@code mariadbd} in the
 * foreground on a free loopback port), never the shared server. {@link #stop()} SIGKILLs it; the next start runs InnoDB
 * crash recovery.
 */
final class PrivateMariaDb implements PrivateServer {
    private final Path base;
    private final int port;
    private Process process;

    private PrivateMariaDb(Path base, int port) {
        this.base = base;
        this.port = port;
    }

    static PrivateMariaDb create() throws Exception {
        if (!Ports.onPath("mariadb-install-db")
                || !(Ports.onPath("mariadbd") || Files.isExecutable(Path.of("/usr/sbin/mariadbd")))) {
            TestServices.unavailable("a private MariaDB", List.of("mariadb-install-db or mariadbd is not installed"));
        }
        Path base = Files.createTempDirectory("agent-persistence-mariadb");
        var server = new PrivateMariaDb(base, Ports.free());
        var install = new ArrayList<>(List.of(
                "mariadb-install-db",
                "--no-defaults",
                "--datadir=" + base.resolve("data"),
                "--auth-root-authentication-method=normal",
                "--skip-test-db"));
        if (isRoot()) {
            install.add("--user=root");
        }
        var process = new ProcessBuilder(install)
                .redirectErrorStream(true)
                .redirectOutput(base.resolve("install.log").toFile())
                .start();
        if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException(
                    "mariadb-install-db failed:\n" + Files.readString(base.resolve("install.log")));
        }
        server.start();
        try (var c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + server.port + "/?user=root");
                var s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS test");
        }
        return server;
    }

    @Override
    public Map<String, String> settings() {
        return Map.of(
                "agent.persistence.jdbc.url",
                "jdbc:mariadb://127.0.0.1:" + port + "/test?user=root",
                "agent.persistence.jdbc.connection-timeout",
                "2s",
                "agent.persistence.jdbc.pool-size",
                "2");
    }

    @Override
    public void start() throws Exception {
        String binary = Ports.onPath("mariadbd") ? "mariadbd" : "/usr/sbin/mariadbd";
        var command = new ArrayList<>(List.of(
                binary,
                "--no-defaults",
                "--datadir=" + base.resolve("data"),
                "--port=" + port,
                "--bind-address=127.0.0.1",
                "--socket=" + base.resolve("sock"),
                "--pid-file=" + base.resolve("pid"),
                "--skip-log-bin",
                "--innodb-buffer-pool-size=32M",
                "--skip-name-resolve"));
        if (isRoot()) {
            command.add("--user=root");
        }
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        base.resolve("server.log").toFile()))
                .start();
        Ports.awaitAnswer(
                "private MariaDB",
                () -> SharedServers.jdbcAnswers("jdbc:mariadb://127.0.0.1:" + port + "/?user=root"),
                process);
    }

    @Override
    public void stop() throws Exception {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(60, TimeUnit.SECONDS);
            process = null;
        }
    }

    @Override
    public String mechanism() {
        return "private server (mariadb-install-db) on port " + port + ", SIGKILL, then mariadbd again";
    }

    @Override
    public void close() throws Exception {
        stop();
        try (var walk = Files.walk(base)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }
}
