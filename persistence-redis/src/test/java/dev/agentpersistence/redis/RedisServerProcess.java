package dev.agentpersistence.redis;

import dev.agentpersistence.tck.TestServices;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A private {@code redis-server} on a free loopback port, started and stopped by a test (never the shared server):
 * {@code --daemonize yes}, nothing written to disk but its log and pid file in {@code dir}. {@link #stop()} runs
 * {@code redis-cli -p P shutdown nosave}; {@link #start()} starts it again on the same port.
 */
final class RedisServerProcess implements AutoCloseable {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final Path dir;
    private final int port;
    private final List<String> extraArgs;
    private boolean running;

    RedisServerProcess(Path dir, int port, List<String> extraArgs) {
        this.dir = dir;
        this.port = port;
        this.extraArgs = List.copyOf(extraArgs);
    }

    /**
     * Starts a server on a free port, or skips/fails the test through {@link TestServices} when redis-server is
     * missing.
     */
    static RedisServerProcess start(String service, Path dir, List<String> extraArgs) {
        requireBinaries(service);
        var server = new RedisServerProcess(dir, freePort(false), extraArgs);
        server.start();
        return server;
    }

    /** Skips (or fails when services are required) unless redis-server and redis-cli are on the PATH. */
    static void requireBinaries(String service) {
        var missing = new ArrayList<String>();
        for (String binary : List.of("redis-server", "redis-cli")) {
            if (onPath(binary).isEmpty()) {
                missing.add(binary + " is not on the PATH");
            }
        }
        if (!missing.isEmpty()) {
            TestServices.unavailable(service, missing);
        }
    }

    /** A loopback port that is free now; with {@code clusterBus} also port + 10000 (the cluster bus). */
    static int freePort(boolean clusterBus) {
        for (int attempt = 0; attempt < 100; attempt++) {
            try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                int port = socket.getLocalPort();
                if (!clusterBus) {
                    return port;
                }
                if (port + 10000 <= 65535 && !inUse(port + 10000)) {
                    return port;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalStateException("No free loopback port found");
    }

    /** (Re)starts the server on its port and waits until it answers. */
    void start() {
        var command = new ArrayList<>(List.of(
                "redis-server",
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "yes",
                "--dir",
                dir.toString(),
                "--pidfile",
                dir.resolve("redis-" + port + ".pid").toString(),
                "--logfile",
                dir.resolve("redis-" + port + ".log").toString()));
        command.addAll(extraArgs);
        String out = run(command);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!inUse(port)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("redis-server on port " + port + " did not start: " + out + log());
            }
            sleep(20);
        }
        running = true;
    }

    /** Shuts the server down without saving and waits until the port is closed. */
    void stop() {
        run(cli("shutdown", "nosave"));
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (inUse(port)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("redis-server on port " + port + " did not stop");
            }
            sleep(20);
        }
        running = false;
    }

    /** {@code redis-cli -h 127.0.0.1 -p port args…} (plus {@code -a} when started with {@code --requirepass}). */
    List<String> cli(String... args) {
        var command = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port)));
        int pass = extraArgs.indexOf("--requirepass");
        if (pass >= 0) {
            command.addAll(List.of("--no-auth-warning", "-a", extraArgs.get(pass + 1)));
        }
        command.addAll(List.of(args));
        return command;
    }

    int port() {
        return port;
    }

    String hostAndPort() {
        return "127.0.0.1:" + port;
    }

    @Override
    public void close() {
        if (running) {
            stop();
        }
    }

    /** Runs a command, returns its output; fails on a non-zero exit. */
    static String run(List<String> command) {
        try {
            var process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("Timed out: " + String.join(" ", command));
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(
                        String.join(" ", command) + " exited with " + process.exitValue() + ": " + out);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static boolean inUse(int port) {
        try (var socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private String log() {
        try {
            Path log = dir.resolve("redis-" + port + ".log");
            return Files.exists(log) ? "\n" + Files.readString(log) : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static Optional<Path> onPath(String binary) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String entry : path.split(File.pathSeparator)) {
            Path candidate = Path.of(entry, binary);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
