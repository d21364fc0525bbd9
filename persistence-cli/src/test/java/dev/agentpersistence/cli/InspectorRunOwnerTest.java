package dev.agentpersistence.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.cli.internal.InspectorServer;
import dev.agentpersistence.cli.internal.Json;
import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.pipeline.Node;
import dev.agentpersistence.pipeline.Pipeline;
import dev.agentpersistence.pipeline.PipelineWorkers;
import dev.agentpersistence.pipeline.QueuedRun;
import dev.agentpersistence.pipeline.StateCodec;
import dev.agentpersistence.spi.ProviderConfig;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inspector shows who runs a pipeline run: while a worker of the pipeline's queue works on it, the run's owner,
 * fencing token and lease expiry; after it finished, the lease as run out; for a run not started through a queue, the
 * runner that saved its newest checkpoint and no lease.
 */
class InspectorRunOwnerTest {
    private static final StateCodec<List<String>> CODEC = StateCodec.jackson(new TypeReference<>() {});

    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path directory;

    @Test
    void aQueuedRunShowsItsWorkerAndLeaseWhileItRunsAndAfter() throws Exception {
        String url = "jdbc:sqlite:" + directory.resolve("fleet.db");
        var started = new CountDownLatch(1);
        var finish = new CountDownLatch(1);
        try (var storage =
                JdbcStorage.builder(JdbcStorageConfig.custom().url(url).build()).build()) {
            var pipeline = Pipeline.builder("orders", CODEC)
                    .storage(storage)
                    .node(Node.of("prepare", context -> List.of("prepared")))
                    .node(Node.of("ship", context -> {
                        started.countDown();
                        assertThat(finish.await(60, TimeUnit.SECONDS)).isTrue();
                        return List.of("prepared", "shipped");
                    }))
                    .build();
            try (var workers = PipelineWorkers.builder(pipeline)
                    .workerId("worker-7")
                    .threads(1)
                    .leaseTime(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(20))
                    .build()) {
                workers.submit("order-1", List.of());
                workers.start();
                assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();

                JsonNode running = runReport(url, "@run/order-1");
                assertThat(running.path("runId").asText()).isEqualTo("order-1");
                assertThat(running.path("pipeline").asText()).isEqualTo("orders");
                assertThat(running.path("queue").path("status").asText()).isEqualTo("running");
                JsonNode lease = running.path("lease");
                assertThat(lease.path("owner").asText()).startsWith("worker-7");
                assertThat(lease.has("token")).as("the fencing token").isTrue();
                assertThat(lease.path("live").asBoolean()).isTrue();
                assertThat(Instant.parse(lease.path("expiresAt").asText())).isAfter(Instant.now());
                assertThat(running.path("runner").asText())
                        .as("the runner token on the claim")
                        .isNotEmpty();

                finish.countDown();
                awaitCompleted(workers, "order-1");
            }
            JsonNode finished = runReport(url, "@run/order-1");
            assertThat(finished.path("queue").path("status").asText()).isEqualTo("completed");
            assertThat(finished.path("lease").path("live").asBoolean())
                    .as("handed back when the run completed")
                    .isFalse();
        }
    }

    @Test
    void aRunStartedWithoutAQueueHasARunnerAndNoLease() throws Exception {
        String url = "jdbc:sqlite:" + directory.resolve("direct.db");
        try (var storage =
                JdbcStorage.builder(JdbcStorageConfig.custom().url(url).build()).build()) {
            assertThat(PipelineRuns.run(storage, "release-1").isCompleted()).isTrue();
        }
        JsonNode report = runReport(url, "@run/release-1");
        assertThat(report.path("pipeline").asText()).isEqualTo("release-note");
        assertThat(report.path("runner").asText()).isNotEmpty();
        assertThat(report.has("queue")).isFalse();
        assertThat(report.has("lease")).isFalse();
    }

    @Test
    void anAgentThatIsNotARunIsNotFound() throws Exception {
        String url = "jdbc:sqlite:" + directory.resolve("direct.db");
        try (var storage =
                JdbcStorage.builder(JdbcStorageConfig.custom().url(url).build()).build()) {
            assertThat(PipelineRuns.run(storage, "release-1").isCompleted()).isTrue();
        }
        try (Store store = Store.open(url, ProviderConfig.empty());
                InspectorServer server = InspectorServer.start(store, 0)) {
            HttpResponse<String> missing = get(server.uri(), "@run/nothing-here");
            assertThat(missing.statusCode()).isEqualTo(404);
            assertThat(missing.body()).contains("no pipeline run");
        }
    }

    private JsonNode runReport(String url, String agent) throws Exception {
        try (Store store = Store.open(url, ProviderConfig.empty());
                InspectorServer server = InspectorServer.start(store, 0)) {
            HttpResponse<String> response = get(server.uri(), agent);
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            return Json.MAPPER.readTree(response.body());
        }
    }

    private HttpResponse<String> get(URI base, String agent) throws Exception {
        URI uri = base.resolve("/api/run?agent=" + URLEncoder.encode(agent, StandardCharsets.UTF_8));
        return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void awaitCompleted(PipelineWorkers<?> workers, String runId) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (workers.runs().stream()
                    .anyMatch(run -> run.runId().equals(runId) && run.status() == QueuedRun.Status.COMPLETED)) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("run " + runId + " did not complete: " + workers.runs());
    }
}
