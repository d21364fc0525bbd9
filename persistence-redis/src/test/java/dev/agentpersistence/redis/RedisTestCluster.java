package dev.agentpersistence.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A real three-master Redis Cluster on free loopback ports, started by the test itself: three {@code redis-server
 * --cluster-enabled yes} processes joined with {@code redis-cli --cluster create … --cluster-replicas 0 --cluster-yes},
 * ready once every node's {@code cluster info} says {@code cluster_state:ok}. {@link #close()} shuts them down and
 * removes their directory.
 */
final class RedisTestCluster implements AutoCloseable {
    static final String SERVICE = "Redis Cluster";
    private static final Duration READY = Duration.ofSeconds(30);

    private final Path dir;
    private final List<RedisServerProcess> nodes = new ArrayList<>();

    private RedisTestCluster(Path dir) {
        this.dir = dir;
    }

    /** Starts the cluster, or skips (fails when services are required) when redis-server is missing. */
    static RedisTestCluster start() {
        RedisServerProcess.requireBinaries(SERVICE);
        Path dir;
        try {
            dir = Files.createTempDirectory("agent-persistence-redis-cluster");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        var cluster = new RedisTestCluster(dir);
        try {
            cluster.create();
            return cluster;
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    private void create() {
        for (int i = 0; i < 3; i++) {
            int port = RedisServerProcess.freePort(true);
            var node = new RedisServerProcess(
                    dir,
                    port,
                    List.of(
                            "--cluster-enabled",
                            "yes",
                            "--cluster-config-file",
                            dir.resolve("nodes-" + port + ".conf").toString(),
                            "--cluster-node-timeout",
                            "5000"));
            nodes.add(node);
            node.start();
        }
        var create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
        nodes.forEach(node -> create.add(node.hostAndPort()));
        create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
        RedisServerProcess.run(create);
        long deadline = System.nanoTime() + READY.toNanos();
        for (var node : nodes) {
            while (!RedisServerProcess.run(node.cli("cluster", "info")).contains("cluster_state:ok")) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Redis Cluster did not become ready: "
                            + RedisServerProcess.run(node.cli("cluster", "info")));
                }
                RedisServerProcess.sleep(100);
            }
        }
    }

    /** {@code 127.0.0.1:port} of every master. */
    List<String> nodes() {
        return nodes.stream().map(RedisServerProcess::hostAndPort).toList();
    }

    /** The master processes. */
    List<RedisServerProcess> processes() {
        return List.copyOf(nodes);
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        for (var node : nodes) {
            try {
                node.close();
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a leftover temp directory is harmless
        }
        if (failure != null) {
            throw failure;
        }
    }
}
