package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The checkpoint of a node that passed after failed attempts keeps what those attempts broke, bounded. */
class FailedAttemptsStoredTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final PersistenceStorageProvider<CheckpointFilter> storage = Storages.inMemory();

    @AfterEach
    void close() {
        storage.close();
    }

    private JsonNode failedAttempts(String runId, String node) throws Exception {
        AgentCheckpoint checkpoint = storage.getCheckpoints(Pipeline.storedRunId(runId)).stream()
                .filter(cp -> node.equals(cp.nodeId()))
                .reduce((a, b) -> b)
                .orElseThrow();
        String value = checkpoint.metadata().get(Pipeline.FAILED_ATTEMPTS_METADATA_KEY);
        return value == null ? null : JSON.readTree(value);
    }

    @Test
    void theViolationsAndErrorsOfFailedAttemptsAreInTheCheckpointOfThePassingAttempt() throws Exception {
        var pipeline = Pipeline.builder("notes", StateCodec.jackson(String.class))
                .storage(storage)
                .node(Node.<String>of("plain", ctx -> ctx.state()))
                .node(Node.<String>builder("write")
                        .postcondition(Condition.of(
                                "ends with done",
                                text -> text.endsWith("done") ? List.of() : List.of("<b>not done</b> & \"open\"")))
                        .action(ctx -> {
                            if (ctx.attempt() == 2) {
                                throw new IllegalStateException("model timed out");
                            }
                            return ctx.state() + (ctx.attempt() == 3 ? " done" : " draft");
                        })
                        .build())
                .build();

        assertThat(pipeline.run("n-1", "text").isCompleted()).isTrue();

        assertThat(failedAttempts("n-1", "plain"))
                .as("a node that passed at once")
                .isNull();
        JsonNode failed = failedAttempts("n-1", "write");
        assertThat(failed).hasSize(2);
        assertThat(failed.get(0).path("attempt").asInt()).isEqualTo(1);
        assertThat(failed.get(0).path("violations").get(0).path("condition").asText())
                .isEqualTo("ends with done");
        assertThat(failed.get(0).path("violations").get(0).path("message").asText())
                .isEqualTo("<b>not done</b> & \"open\"");
        assertThat(failed.get(0).has("error")).isFalse();
        assertThat(failed.get(1).path("attempt").asInt()).isEqualTo(2);
        assertThat(failed.get(1).path("violations")).isEmpty();
        assertThat(failed.get(1).path("error").asText()).isEqualTo("java.lang.IllegalStateException: model timed out");
    }

    @Test
    void manyLongViolationsAreKeptBounded() throws Exception {
        var many = new ArrayList<String>();
        for (int i = 0; i < 7; i++) {
            many.add(i + " " + "x".repeat(5_000));
        }
        var pipeline = Pipeline.builder("notes", StateCodec.jackson(String.class))
                .storage(storage)
                .retryPolicy(RetryPolicy.custom().maxRetries(9).build())
                .node(Node.<String>builder("write")
                        .postcondition(Condition.of(
                                "c".repeat(1_000), text -> text.endsWith("@10") ? List.of() : List.copyOf(many)))
                        .action(ctx -> ctx.state() + "@" + ctx.attempt())
                        .build())
                .build();

        assertThat(pipeline.run("n-2", "text").isCompleted()).isTrue();

        String stored = storage.getCheckpoints(Pipeline.storedRunId("n-2")).stream()
                .filter(cp -> "write".equals(cp.nodeId()))
                .findFirst()
                .orElseThrow()
                .metadata()
                .get(Pipeline.FAILED_ATTEMPTS_METADATA_KEY);
        assertThat(stored.length()).isLessThan(16 * 1024);
        JsonNode failed = JSON.readTree(stored);
        assertThat(failed).as("the last five of nine failed attempts").hasSize(5);
        assertThat(failed.get(0).path("attempt").asInt()).isEqualTo(5);
        assertThat(failed.get(0).path("omittedAttempts").asInt()).isEqualTo(4);
        assertThat(failed.get(4).path("attempt").asInt()).isEqualTo(9);
        assertThat(failed.get(4).path("violations")).hasSize(5);
        assertThat(failed.get(4).path("omitted").asInt()).isEqualTo(2);
        String message = failed.get(4).path("violations").get(0).path("message").asText();
        assertThat(message).hasSize(300).startsWith("0 xxx").endsWith("…");
        assertThat(failed.get(4).path("violations").get(0).path("condition").asText())
                .hasSize(300);
    }
}
