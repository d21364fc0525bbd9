package dev.agentpersistence.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.pipeline.Backoff;
import dev.agentpersistence.pipeline.Node;
import dev.agentpersistence.pipeline.Pipeline;
import dev.agentpersistence.pipeline.PipelineEvent;
import dev.agentpersistence.pipeline.RetryPolicy;
import dev.agentpersistence.pipeline.StateCodec;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The server goes down in the middle of a pipeline run and comes back: the provider raises
 * {@link StorageUnavailableException} while it is down, the pipeline retries its checkpoint save with backoff, and the
 * run completes with every checkpoint present. Each backend runs on a server of its own (PostgreSQL, MariaDB, Redis
 * with AOF, S3Proxy over a directory), never a shared one.
 */
class OutageTest {
    private static final Duration DOWN = Duration.ofMillis(2500);
    private static final List<String> NODES = List.of("step-1", "step-2", "step-3", "step-4", "step-5", "step-6");

    private Path dir;

    @BeforeEach
    void createDir() throws Exception {
        dir = Ids.scratch("outage");
    }

    @AfterEach
    void deleteDir() throws Exception {
        Ids.delete(dir);
    }

    @Test
    @Timeout(300)
    void postgres() throws Exception {
        try (var server = PrivatePostgres.create()) {
            outage("jdbc-postgresql", "jdbc", server);
        }
    }

    @Test
    @Timeout(300)
    void mariadb() throws Exception {
        try (var server = PrivateMariaDb.create()) {
            outage("jdbc-mariadb", "jdbc", server);
        }
    }

    @Test
    @Timeout(300)
    void redis() throws Exception {
        try (var redis = PrivateRedis.start(dir.resolve("redis"), true)) {
            outage("redis", "redis", new PrivateServer() {
                @Override
                public Map<String, String> settings() {
                    return Map.of(
                            "agent.persistence.redis.uri",
                            redis.uri(),
                            "agent.persistence.redis.connect-timeout",
                            "1s",
                            "agent.persistence.redis.socket-timeout",
                            "2s");
                }

                @Override
                public void stop() throws Exception {
                    redis.kill();
                }

                @Override
                public void start() throws Exception {
                    redis.start();
                }

                @Override
                public String mechanism() {
                    return "private redis-server (AOF, appendfsync always) on port " + redis.port()
                            + ", SIGKILL, then started again";
                }

                @Override
                public void close() {}
            });
        }
    }

    @Test
    @Timeout(300)
    void s3() throws Exception {
        Path store = dir.resolve("s3");
        var current = new AtomicReference<>(LocalS3.start(store, 0));
        int port = current.get().port();
        try {
            outage("s3", "s3", new PrivateServer() {
                @Override
                public Map<String, String> settings() {
                    return LocalS3.settings(current.get().endpoint());
                }

                @Override
                public void stop() throws Exception {
                    current.get().close();
                }

                @Override
                public void start() throws Exception {
                    current.set(LocalS3.start(store, port));
                }

                @Override
                public String mechanism() {
                    return "S3Proxy over a directory in the test JVM on port " + port + ", stopped, then started again";
                }

                @Override
                public void close() {}
            });
        } finally {
            current.get().close();
        }
    }

    private void outage(String label, String provider, PrivateServer server) throws Exception {
        String runId = Ids.unique("outage");
        var failures = new CopyOnWriteArrayList<PipelineEvent.CheckpointSaveFailed>();
        var whileDown = new AtomicReference<Throwable>();
        var restart = new AtomicReference<Thread>();
        long started = System.nanoTime();
        try (var storage = PersistenceStorageProviders.load(provider, ProviderConfig.of(server.settings()))) {
            var builder = Pipeline.builder("outage", StateCodec.jackson(PipelineChildMain.Progress.class))
                    .storage(storage)
                    .checkpointRetry(RetryPolicy.custom()
                            .maxRetries(30)
                            .backoff(Backoff.exponential(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1)))
                            .build())
                    .listener(event -> {
                        if (event instanceof PipelineEvent.CheckpointSaveFailed failed) {
                            failures.add(failed);
                        }
                    });
            for (String name : NODES) {
                builder.node(Node.<PipelineChildMain.Progress>of(name, ctx -> {
                    if (name.equals("step-3")) {
                        server.stop();
                        try {
                            storage.getLatestCheckpoint(Pipeline.storedRunId(runId));
                        } catch (Throwable e) {
                            whileDown.set(e);
                        }
                        var thread = new Thread(
                                () -> {
                                    try {
                                        Thread.sleep(DOWN.toMillis());
                                        server.start();
                                    } catch (Exception e) {
                                        throw new IllegalStateException(e);
                                    }
                                },
                                "restart");
                        thread.start();
                        restart.set(thread);
                    }
                    return ctx.state().plus(name);
                }));
            }
            var result = builder.build().run(runId, new PipelineChildMain.Progress(List.of()));
            restart.get().join(120_000);
            assertThat(result.isCompleted())
                    .as(String.valueOf(result.failure()))
                    .isTrue();
            assertThat(result.state().done()).containsExactlyElementsOf(NODES);
            assertThat(whileDown.get())
                    .as("a call while the server is down")
                    .isInstanceOf(StorageUnavailableException.class);
            assertThat(failures)
                    .as("saves that met the outage")
                    .isNotEmpty()
                    .allSatisfy(f -> assertThat(f.exception()).isInstanceOf(StorageUnavailableException.class));
            var expected = new ArrayList<String>(List.of(Pipeline.START_NODE_ID));
            expected.addAll(NODES);
            expected.add(AgentCheckpoint.TOMBSTONE_NODE_ID);
            assertThat(storage.getCheckpoints(Pipeline.storedRunId(runId)))
                    .extracting(AgentCheckpoint::nodeId)
                    .containsExactlyElementsOf(expected);
            storage.deleteCheckpoints(Pipeline.storedRunId(runId));
        }
        Figures.record(
                "outage mid-run",
                label,
                server.mechanism() + "; down " + DOWN.toMillis() + " ms; "
                        + failures.size()
                        + " failed save attempts, all StorageUnavailableException, retried with backoff; "
                        + "run completed with all " + (NODES.size() + 2) + " checkpoints; message while down: \""
                        + whileDown.get().getMessage() + "\"; " + (System.nanoTime() - started) / 1_000_000 + " ms");
    }

    @Test
    void aCallWhileTheServerIsDownNamesTheEndpoint() throws Exception {
        try (var redis = PrivateRedis.start(dir.resolve("redis-down"), false);
                var storage = PersistenceStorageProviders.load(
                        "redis", ProviderConfig.of(Map.of("agent.persistence.redis.uri", redis.uri())))) {
            redis.kill();
            assertThatThrownBy(() -> storage.listAgents())
                    .isInstanceOf(StorageUnavailableException.class)
                    .hasMessageContaining("127.0.0.1:" + redis.port())
                    .hasCauseInstanceOf(RuntimeException.class);
            redis.start();
            assertThat(storage.listAgents()).isEmpty();
        }
    }
}
