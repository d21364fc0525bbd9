package dev.agentpersistence.examples.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpersistence.examples.StorageSelection;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Runs the metrics example's workload, scrapes its endpoint over HTTP and checks what Prometheus would get. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MetricsExampleTest {
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})?\\s+(\\S+)");

    private PrometheusMeterRegistry registry;
    private PrometheusEndpoint endpoint;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private String scrape;
    /** Metric name with labels → value, e.g. {@code agent_pipeline_node_retries_total{node="concepts-writer",...}}. */
    private final Map<String, Double> samples = new HashMap<>();

    @BeforeAll
    void runTheWorkloadAndScrape(@TempDir Path directory) throws Exception {
        registry = MetricsExample.newRegistry();
        endpoint = PrometheusEndpoint.start(registry, 0);
        var out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        try (var storage =
                MetricsExample.openStorage(StorageSelection.sqlite(directory.resolve("metrics.db")), registry)) {
            var results =
                    MetricsExample.runWorkload(registry, storage, "jdbc", directory.resolve("workspaces"), 4, 5, out);
            assertThat(results)
                    .allSatisfy(result -> assertThat(result.isCompleted()).isTrue());
        }
        MetricsExample.printSummary(registry, out);

        HttpResponse<String> response =
                http.send(HttpRequest.newBuilder(endpoint.uri()).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).contains(PrometheusEndpoint.TEXT_FORMAT);
        scrape = response.body();
        scrape.lines().filter(line -> !line.startsWith("#")).forEach(line -> {
            Matcher m = SAMPLE.matcher(line);
            if (m.find()) {
                samples.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)), Double.parseDouble(m.group(3)));
            }
        });
    }

    @AfterAll
    void stop() {
        endpoint.close();
        registry.close();
    }

    /** The sum of every sample of {@code name} whose labels contain all of {@code labels}. */
    private double value(String name, String... labels) {
        return samples.entrySet().stream()
                .filter(e -> e.getKey().equals(name) || e.getKey().startsWith(name + "{"))
                .filter(e -> {
                    for (String label : labels) {
                        if (!e.getKey().contains(label)) {
                            return false;
                        }
                    }
                    return true;
                })
                .mapToDouble(Map.Entry::getValue)
                .sum();
    }

    @Test
    void theEndpointListensOnLoopbackAndServesOnlyMetrics() throws Exception {
        assertThat(endpoint.uri().getHost()).isEqualTo("127.0.0.1");
        assertThat(endpoint.port()).isPositive();
        var other = http.send(
                HttpRequest.newBuilder(endpoint.uri().resolve("/other")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(other.statusCode()).isEqualTo(404);
        var openMetrics = http.send(
                HttpRequest.newBuilder(endpoint.uri())
                        .header("Accept", "application/openmetrics-text; version=1.0.0")
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(openMetrics.headers().firstValue("Content-Type")).contains(PrometheusEndpoint.OPENMETRICS_FORMAT);
        assertThat(openMetrics.body()).contains("# EOF");
    }

    @Test
    void storageMetersHaveLatencyHistogramsSizesConflictsAndErrors() {
        assertThat(value("agent_persistence_checkpoint_save_seconds_count", "provider=\"jdbc\"", "outcome=\"success\""))
                .as("saves of 4 runs: input, 3 nodes and a tombstone each, plus the embedded agent's 2")
                .isEqualTo(22);
        assertThat(value("agent_persistence_checkpoint_save_seconds_bucket", "outcome=\"success\"", "le=\"+Inf\""))
                .isEqualTo(22);
        assertThat(value("agent_persistence_checkpoint_load_seconds_count", "operation=\"latest\""))
                .isPositive();
        assertThat(value("agent_persistence_checkpoint_size_bytes_count", "provider=\"jdbc\""))
                .isEqualTo(22);
        assertThat(value("agent_persistence_checkpoint_size_bytes_sum")).isGreaterThan(22 * 200);
        assertThat(value("agent_persistence_checkpoint_conflicts_total", "provider=\"jdbc\""))
                .isEqualTo(1);
        assertThat(value("agent_persistence_checkpoint_save_seconds_count", "outcome=\"conflict\""))
                .isEqualTo(1);
        assertThat(value(
                        "agent_persistence_storage_errors_total",
                        "exception=\"CheckpointTooLargeException\"",
                        "operation=\"save\""))
                .as("the save over the size cap")
                .isEqualTo(1);
        assertThat(value("agent_persistence_checkpoint_save_seconds_count", "outcome=\"error\""))
                .as("the network blips fail before the storage, so only the oversized save reached it and failed")
                .isEqualTo(1);
    }

    @Test
    void pipelineMetersCountAttemptsRetriesRollbacksAndValidationFailures() {
        assertThat(value("agent_pipeline_node_retries_total", "node=\"concepts-writer\""))
                .isEqualTo(1);
        assertThat(value("agent_pipeline_node_retries_total", "node=\"overview-writer\""))
                .isEqualTo(1);
        assertThat(value("agent_pipeline_node_retries_total", "node=\"visualization-writer\""))
                .isEqualTo(1);
        assertThat(value("agent_pipeline_node_rollbacks_total")).isEqualTo(3);
        assertThat(value("agent_pipeline_node_attempts_total")).isEqualTo(4 * 3 + 3);
        assertThat(value(
                        "agent_pipeline_validation_failures_total",
                        "node=\"concepts-writer\"",
                        "condition=\"concept blocks\"",
                        "phase=\"post\""))
                .isEqualTo(1);
        assertThat(value("agent_pipeline_node_duration_seconds_bucket", "le=\"+Inf\""))
                .isEqualTo(15);
        assertThat(value("agent_pipeline_run_duration_seconds_count", "status=\"completed\""))
                .isEqualTo(4);
        assertThat(value("agent_pipeline_checkpoint_save_failures_total", "retried=\"true\""))
                .isGreaterThanOrEqualTo(3);
    }

    @Test
    void facadeMetersRecordTheEmbeddedAgentsRollback() {
        assertThat(value("agent_persistence_rollback_seconds_count", "target=\"checkpoint\"", "outcome=\"restored\""))
                .isEqualTo(1);
        assertThat(value("agent_persistence_rollback_inverse_calls_total", "outcome=\"success\""))
                .isEqualTo(3);
        assertThat(value("agent_persistence_checkpoint_create_seconds_count", "kind=\"checkpoint\""))
                .isPositive();
    }

    @Test
    void everyMetricTheGrafanaDashboardQueriesIsServed() throws Exception {
        JsonNode dashboard = new ObjectMapper()
                .readTree(Path.of("grafana", "agent-persistence-dashboard.json").toFile());
        Set<String> queried = new LinkedHashSet<>();
        Set<String> titles = new LinkedHashSet<>();
        for (JsonNode panel : dashboard.path("panels")) {
            titles.add(panel.path("title").asText());
            for (JsonNode target : panel.path("targets")) {
                Matcher names = Pattern.compile("agent_[a-z_]+")
                        .matcher(target.path("expr").asText());
                while (names.find()) {
                    queried.add(names.group());
                }
            }
        }
        assertThat(queried).hasSizeGreaterThan(15);
        for (String name : queried) {
            assertThat(samples.keySet()).as("%s is served", name).anyMatch(key -> key.startsWith(name));
        }
        assertThat(titles)
                .contains(
                        "Checkpoint save latency p50 / p95 / p99",
                        "Checkpoint size",
                        "Version conflicts",
                        "Storage errors by exception",
                        "Node duration p50 / p95",
                        "Retries by node",
                        "Rollbacks",
                        "Validation failures by node and condition");
        assertThat(dashboard.toString())
                .contains("histogram_quantile(0.99, sum by (le, provider) "
                        + "(rate(agent_persistence_checkpoint_save_seconds_bucket");
    }

    @Test
    void theWorkloadReportsItsProgressAndASummary() {
        String text = printed.toString(StandardCharsets.UTF_8);
        assertThat(text)
                .contains(
                        "run 1/4 metrics-1",
                        "run 4/4 metrics-4",
                        "refused (CheckpointConflictException)",
                        "rollback undid 3 orders",
                        "checkpoint saves",
                        "validation failures");
    }

    @Test
    void histogramBucketsArePublishedForPipelineAndFacadeTimers() {
        assertThat(scrape)
                .contains(
                        "agent_pipeline_node_duration_seconds_bucket{",
                        "agent_persistence_checkpoint_create_seconds_bucket{",
                        "agent_pipeline_checkpoint_size_bytes_bucket{");
        assertThat(endpoint.uri().getPath()).isEqualTo("/metrics");
    }
}
