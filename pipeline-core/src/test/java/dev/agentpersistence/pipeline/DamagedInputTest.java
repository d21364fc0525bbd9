package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.PersistenceStorageProvider;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Damaged or hostile input gives typed errors: a too deeply nested answer, a journal entry of a kind this version does
 * not know, a waiting run whose question cannot be read (skipped, the others still listed).
 */
class DamagedInputTest {
    private final PersistenceStorageProvider<CheckpointFilter> storage = Storages.inMemory();
    private final AtomicInteger ran = new AtomicInteger();

    @AfterEach
    void close() {
        storage.close();
    }

    private Pipeline<String> pipeline() {
        return Pipeline.builder("approvals", StateCodec.jackson(String.class))
                .storage(storage)
                .node(Node.of("approve", ctx -> {
                    ran.incrementAndGet();
                    return ctx.state() + " " + ctx.awaitInput("Ship?", AnswerSchema.any());
                }))
                .build();
    }

    @Test
    void anAnswerNestedFifteenHundredLevelsDeepIsAnInvalidAnswerAndTheRunStillWaits() throws Exception {
        var pipeline = pipeline();
        assertThat(pipeline.run("deep", "order").isWaiting()).isTrue();
        List<AgentCheckpoint> before = storage.getCheckpoints(Pipeline.storedRunId("deep"));
        JsonNode deep = new ObjectMapper()
                .getFactory()
                .setStreamReadConstraints(
                        StreamReadConstraints.builder().maxNestingDepth(2_000).build())
                .createParser("[".repeat(1_500) + "]".repeat(1_500))
                .readValueAsTree();

        assertThatThrownBy(() -> pipeline.resume("deep", deep))
                .isInstanceOf(InvalidAnswerException.class)
                .hasMessageContaining("nested more than " + AnswerSchema.MAX_DEPTH + " levels deep")
                .hasMessageContaining("the run is still waiting");

        assertThat(storage.getCheckpoints(Pipeline.storedRunId("deep"))).isEqualTo(before);
        assertThat(pipeline.resume("deep", TextNode.valueOf("yes")).isCompleted())
                .isTrue();
    }

    @Test
    void aJournalEntryOfAnUnknownKindIsACorruptCheckpointNamingTheJournalAndNoNodeRuns() {
        String run = Pipeline.storedRunId("r");
        save(
                run,
                Pipeline.START_NODE_ID,
                Map.of("pipeline", TextNode.valueOf("approvals"), "pipeline.state", TextNode.valueOf("order")),
                Map.of("pipeline", "approvals", "pipeline.attempts", "0"));
        String journal = AgentNamespace.TOOL_JOURNALS.agentId("r");
        save(
                journal,
                "approve",
                Map.of(
                        "journal.entry",
                        JsonNodeFactory.instance
                                .objectNode()
                                .put("kind", "TELEPORT")
                                .put("node", "approve")
                                .put("attempt", 1)),
                Map.of("journal.kind", "TELEPORT"));

        assertThatThrownBy(() -> pipeline().run("r", "ignored"))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining(journal)
                .hasMessageContaining("unknown journal entry kind 'TELEPORT'")
                .hasMessageContaining("does not resume");
        assertThat(ran).hasValue(0);
    }

    @Test
    void waitingRunsSkipsARunWhoseQuestionCannotBeReadAndListsTheOthers() {
        var pipeline = pipeline();
        for (String id : List.of("good-1", "bad", "good-2")) {
            assertThat(pipeline.run(id, "order").isWaiting()).isTrue();
        }
        AgentCheckpoint waiting =
                storage.getLatestCheckpoint(Pipeline.storedRunId("bad")).orElseThrow();
        var damaged = new java.util.HashMap<>(waiting.metadata());
        damaged.put("pipeline.waiting", "{\"node\": \"approve\", \"question\": ");
        storage.saveCheckpoint(
                waiting.agentId(),
                waiting.toBuilder()
                        .checkpointId(UUID.randomUUID().toString())
                        .version(waiting.version() + 1)
                        .parentCheckpointId(waiting.checkpointId())
                        .metadata(damaged)
                        .build());

        assertThat(pipeline.waitingRuns())
                .extracting(InputRequest::runId)
                .containsExactlyInAnyOrder("good-1", "good-2");
        WaitingRuns scan = pipeline.scanWaitingRuns();
        assertThat(scan.waiting()).hasSize(2);
        assertThat(scan.unreadable()).singleElement().satisfies(skipped -> {
            assertThat(skipped.runId()).isEqualTo("bad");
            assertThat(skipped.agentId()).isEqualTo(Pipeline.storedRunId("bad"));
            assertThat(skipped.problem())
                    .isInstanceOf(CorruptCheckpointException.class)
                    .hasMessageContaining("wait metadata of version " + (waiting.version() + 1));
        });
    }

    private void save(String agentId, String node, Map<String, JsonNode> state, Map<String, String> metadata) {
        storage.saveCheckpoint(
                agentId,
                AgentCheckpoint.builder()
                        .agentId(agentId)
                        .checkpointId(UUID.randomUUID().toString())
                        .version(0)
                        .createdAt(Instant.parse("2026-01-01T00:00:00Z"))
                        .nodeId(node)
                        .state(state)
                        .metadata(metadata)
                        .build());
    }
}
