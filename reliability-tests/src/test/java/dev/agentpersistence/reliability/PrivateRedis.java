package dev.agentpersistence.reliability;

import dev.agentpersistence.tck.TestServices;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} of its own on a free loopback port with its own directory (never the shared server), run in
 * the foreground as a child process so it can be SIGKILLed. With {@code aof} it appends every write to its AOF and
 * fsyncs before answering ({@code appendfsync always}).
 */
final class PrivateRedis implements AutoCloseable {
    private final Path dir;
    private final int port;
    private final boolean aof;
    private Process process;

    private PrivateRedis(Path dir, int port, boolean aof) {
        this.dir = dir;
        this.port = port;
        this.aof = aof;
    }

    static PrivateRedis start(Path dir, boolean aof) throws Exception {
        if (!Ports.onPath("redis-server")) {
            TestServices.unavailable("a private redis-server", List.of("redis-server is not on the PATH"));
        }
        Files.createDirectories(dir);
        var redis = new PrivateRedis(dir, Ports.free(), aof);
        redis.start();
        return redis;
    }

    String uri() {
        return "redis://127.0.0.1:" + port;
    }

    int port() {
        return port;
    }

    /** Starts the server (again, over the same directory) and waits until it answers. */
    void start() throws Exception {
        var command = new ArrayList<>(List.of(
                "redis-server",
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--dir",
                dir.toAbsolutePath().toString(),
                "--daemonize",
                "no",
                "--save",
                "",
                "--protected-mode",
                "no",
                "--logfile",
                dir.resolve("redis.log").toAbsolutePath().toString()));
        if (aof) {
            command.addAll(List.of("--appendonly", "yes", "--appendfsync", "always"));
        }
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("redis.out").toFile())
                .start();
        Ports.awaitAnswer("redis-server on port " + port, () -> SharedServers.redisAnswers(uri()) && loaded(), process);
    }

    /** SIGKILL: the server dies at once, without saving anything. */
    void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
            process = null;
        }
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }

    private boolean loaded() {
        try (var client = redis.clients.jedis.RedisClient.create(java.net.URI.create(uri()))) {
            return client.ping().equals("PONG");
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return "redis-server 127.0.0.1:" + port + " (dir " + dir + (aof ? ", AOF appendfsync always" : "") + ")";
    }

    /** The server's own log, for failure messages. */
    String log() throws IOException {
        Path log = dir.resolve("redis.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }
}
