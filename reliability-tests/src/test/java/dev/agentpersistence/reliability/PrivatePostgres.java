package dev.agentpersistence.reliability;

import dev.agentpersistence.tck.TestServices;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL cluster of its own ({@code initdb} into a temporary directory, {@code pg_ctl} on a free loopback port),
 * never the shared server. As root, the commands run as the {@code postgres} user ({@code runuser}), which PostgreSQL
 * requires. {@link #stop()} is {@code pg_ctl stop -m immediate}: the server processes exit without a shutdown
 * checkpoint, and the next start runs crash recovery.
 */
final class PrivatePostgres implements PrivateServer {
    private final Path base;
    private final Path bin;
    private final int port;

    private PrivatePostgres(Path base, Path bin, int port) {
        this.base = base;
        this.bin = bin;
        this.port = port;
    }

    static PrivatePostgres create() throws Exception {
        Path bin = binDir();
        Path base = Files.createTempDirectory(
                "agent-persistence-pg",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        var server = new PrivatePostgres(base, bin, Ports.free());
        if (isRoot()) {
            run(List.of("chown", "-R", "postgres", base.toString()));
        }
        server.pg(
                "initdb",
                "-D",
                base.resolve("data").toString(),
                "-A",
                "trust",
                "-U",
                "postgres",
                "--no-sync",
                "-E",
                "UTF8");
        server.start();
        return server;
    }

    @Override
    public Map<String, String> settings() {
        return Map.of(
                "agent.persistence.jdbc.url",
                "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres",
                "agent.persistence.jdbc.connection-timeout",
                "2s",
                "agent.persistence.jdbc.pool-size",
                "2");
    }

    @Override
    public void start() throws Exception {
        pg(
                "pg_ctl",
                "-D",
                base.resolve("data").toString(),
                "-o",
                "-p " + port + " -k " + base + " -c listen_addresses=127.0.0.1",
                "-l",
                base.resolve("log").toString(),
                "-w",
                "-t",
                "60",
                "start");
        Ports.awaitAnswer(
                "private PostgreSQL",
                () -> SharedServers.jdbcAnswers(settings().get("agent.persistence.jdbc.url")),
                null);
    }

    @Override
    public void stop() throws Exception {
        pg("pg_ctl", "-D", base.resolve("data").toString(), "-m", "immediate", "-w", "stop");
    }

    @Override
    public String mechanism() {
        return "private cluster (initdb) on port " + port + ", pg_ctl stop -m immediate, then pg_ctl start";
    }

    @Override
    public void close() throws Exception {
        try {
            stop();
        } catch (RuntimeException e) {
            // already stopped
        }
        try (var walk = Files.walk(base)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private void pg(String tool, String... args) throws Exception {
        var command = new ArrayList<String>();
        if (isRoot()) {
            command.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        command.add(bin.resolve(tool).toString());
        command.addAll(Arrays.asList(args));
        run(command);
    }

    private static void run(List<String> command) throws Exception {
        var process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed:\n" + output);
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static Path binDir() {
        var candidates = new ArrayList<Path>();
        File[] versions = new File("/usr/lib/postgresql").listFiles();
        if (versions != null) {
            for (File v : versions) {
                candidates.add(v.toPath().resolve("bin"));
            }
        }
        candidates.sort(Comparator.comparing(Path::toString).reversed());
        for (Path candidate : candidates) {
            if (Files.isExecutable(candidate.resolve("initdb")) && Files.isExecutable(candidate.resolve("pg_ctl"))) {
                return candidate;
            }
        }
        return TestServices.unavailable("a private PostgreSQL", List.of("no /usr/lib/postgresql/*/bin/initdb"));
    }
}
