package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.InvalidIdentifierException;
import dev.agentpersistence.KeyedTool;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.async.AsyncExecutor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Runs live in the runs' namespace ({@code @run/<id>}, journals {@code @journal/<id>}), so no run id can name another
 * run's checkpoints or journal; runs an earlier version stored under the raw run id (journal {@code __journal__/<id>})
 * are continued where they are.
 */
class NamespacedRunsTest {
    private static final String PIPELINE = "shop";

    private final PersistenceStorageProvider<CheckpointFilter> storage = Storages.inMemory();
    private final List<String> effects = new CopyOnWriteArrayList<>();
    private final List<String> refunds = new CopyOnWriteArrayList<>();

    private final KeyedTool charge = KeyedTool.of("charge", (args, key) -> {
        effects.add("charge " + args.path("amount").asInt());
        return TextNode.valueOf("charged");
    });
    private final KeyedTool ship = KeyedTool.of("ship", (args, key) -> {
        effects.add("ship");
        return TextNode.valueOf("shipped");
    });
    private final RollbackToolRegistry inverses = RollbackToolRegistry.builder()
            .registerRollback("charge", KeyedTool.of("refund", (args, key) -> {
                refunds.add("refund " + args.path("amount").asInt() + " " + key);
                return null;
            }))
            .build();

    @AfterEach
    void close() {
        storage.close();
    }

    @Test
    void aRunOfAnEarlierVersionUnderItsRawIdResumesCompletesAndItsOpenAttemptIsUndoneOnce() {
        // Written as an earlier version stored it: run "r" under its raw id, its journal "__journal__/r", the
        // process gone after the charge of attempt 1 of node "charge" (intent and result journaled, not closed).
        save("r", 0, Pipeline.START_NODE_ID, runState("order"), Map.of("pipeline", PIPELINE, "pipeline.attempts", "0"));
        ObjectNode intent = entry("INTENT", "charge", 1)
                .put("callId", "call-1")
                .put("tool", "charge")
                .put("key", "key-of-attempt-1");
        intent.set("arguments", JsonNodeFactory.instance.objectNode().put("amount", 100));
        save("__journal__/r", 0, "charge", Map.of("journal.entry", intent), Map.of("journal.kind", "INTENT"));
        ObjectNode result = entry("RESULT", "charge", 1).put("callId", "call-1");
        result.set("result", TextNode.valueOf("charged"));
        save("__journal__/r", 1, "charge", Map.of("journal.entry", result), Map.of("journal.kind", "RESULT"));

        var finished = pipeline().run("r", "ignored");

        assertThat(finished.isCompleted())
                .as(String.valueOf(finished.failure()))
                .isTrue();
        assertThat(finished.resumedAfter()).contains(Pipeline.START_NODE_ID);
        assertThat(refunds).as("the cut-off charge is undone").containsExactly("refund 100 key-of-attempt-1");
        assertThat(effects).containsExactly("charge 100", "ship");
        List<AgentCheckpoint> run = storage.getCheckpoints("r");
        assertThat(run)
                .extracting(AgentCheckpoint::nodeId)
                .containsExactly(
                        Pipeline.START_NODE_ID,
                        Pipeline.START_NODE_ID,
                        "charge",
                        "ship",
                        AgentCheckpoint.TOMBSTONE_NODE_ID);
        assertThat(run.get(1).metadata())
                .as("the claim of the continuing runner, where the run is")
                .containsEntry(Pipeline.CLAIMED_METADATA_KEY, run.get(0).checkpointId());
        assertThat(storage.getCheckpoints(Pipeline.storedRunId("r")))
                .as("the run is continued under its raw id, not copied")
                .isEmpty();
        assertThat(storage.getLatestCheckpoint("__journal__/r").orElseThrow().metadata())
                .as("the open attempt is closed in the journal of the earlier version")
                .containsEntry("journal.kind", "CLOSED");
        assertThat(storage.getCheckpoints(AgentNamespace.TOOL_JOURNALS.agentId("r")))
                .as("the calls of this version go to the run's journal in the namespace")
                .isNotEmpty();

        var again = pipeline().run("r", "ignored");

        assertThat(again.alreadyCompleted()).isTrue();
        assertThat(refunds).as("undone exactly once").hasSize(1);
        assertThat(effects).containsExactly("charge 100", "ship");
    }

    @Test
    void aRunIdNamingAJournalNeitherReadsNorWritesThatJournal() {
        // The victim: one run of an earlier version whose journal holds an open attempt, one of today cut off after
        // its charge.
        save(
                "victim-old",
                0,
                Pipeline.START_NODE_ID,
                runState("order"),
                Map.of("pipeline", PIPELINE, "pipeline.attempts", "0"));
        ObjectNode intent = entry("INTENT", "charge", 1)
                .put("callId", "call-1")
                .put("tool", "charge")
                .put("key", "old-key");
        intent.set("arguments", JsonNodeFactory.instance.objectNode().put("amount", 7));
        save("__journal__/victim-old", 0, "charge", Map.of("journal.entry", intent), Map.of("journal.kind", "INTENT"));
        var crashing = Pipeline.builder(PIPELINE, StateCodec.jackson(String.class))
                .storage(storage)
                .rollbackTools(inverses)
                .node(Node.<String>of("charge", ctx -> {
                    ctx.callTool(charge, amount(100));
                    throw new Crash();
                }))
                .build();
        assertThatThrownBy(() -> crashing.run("victim", "order")).isInstanceOf(Crash.class);
        String victimJournal = AgentNamespace.TOOL_JOURNALS.agentId("victim");
        List<AgentCheckpoint> journalBefore = storage.getCheckpoints(victimJournal);
        List<AgentCheckpoint> oldJournalBefore = storage.getCheckpoints("__journal__/victim-old");
        assertThat(journalBefore).isNotEmpty();
        effects.clear();

        for (String attacker :
                List.of("__journal__/victim", "@journal/victim", "__journal__/victim-old", "@journal/victim-old")) {
            var result = pipeline().run(attacker, "attack");

            assertThat(result.isCompleted()).as(attacker).isTrue();
            assertThat(storage.getCheckpoints(Pipeline.storedRunId(attacker)))
                    .as("run %s lives in the runs' namespace", attacker)
                    .extracting(AgentCheckpoint::nodeId)
                    .containsExactly(Pipeline.START_NODE_ID, "charge", "ship", AgentCheckpoint.TOMBSTONE_NODE_ID);
            assertThat(storage.getCheckpoints(AgentNamespace.TOOL_JOURNALS.agentId(attacker)))
                    .as("run %s journals in its own journal", attacker)
                    .isNotEmpty();
        }

        assertThat(refunds).as("no run undid the victims' calls").isEmpty();
        assertThat(effects).hasSize(8);
        assertThat(storage.getCheckpoints(victimJournal)).isEqualTo(journalBefore);
        assertThat(storage.getCheckpoints("__journal__/victim-old")).isEqualTo(oldJournalBefore);

        assertThat(pipeline().run("victim", "ignored").isCompleted()).isTrue();
        assertThat(pipeline().run("victim-old", "ignored").isCompleted()).isTrue();
        assertThat(refunds)
                .as("each victim undoes its own open attempt, once")
                .hasSize(2)
                .anySatisfy(refund -> assertThat(refund).startsWith("refund 100 "))
                .contains("refund 7 old-key");
    }

    @Test
    void aRunIdLongerThanItsJournalAllowsIsRefusedBeforeAnythingIsWritten() throws Exception {
        var ran = new AtomicInteger();
        var pipeline = Pipeline.builder(PIPELINE, StateCodec.jackson(String.class))
                .storage(storage)
                .node(Node.<String>of("count", ctx -> {
                    ran.incrementAndGet();
                    return ctx.state();
                }))
                .build();
        String longest = "r".repeat(Pipeline.MAX_RUN_ID_LENGTH);
        String tooLong = longest + "x";
        assertThat(Pipeline.MAX_RUN_ID_LENGTH).isEqualTo(247);

        assertThatThrownBy(() -> pipeline.run(tooLong, "input"))
                .isInstanceOf(InvalidIdentifierException.class)
                .hasMessageContaining("248 characters long")
                .hasMessageContaining("at most 247");
        assertThatThrownBy(() -> pipeline.resume(tooLong, TextNode.valueOf("yes")))
                .isInstanceOf(InvalidIdentifierException.class);
        try (var executor = AsyncExecutor.create(1, 1)) {
            assertThatThrownBy(() -> pipeline.runAsync(tooLong, "input", executor))
                    .isInstanceOf(InvalidIdentifierException.class);
        }
        assertThatThrownBy(() -> Pipeline.storedRunId(tooLong)).isInstanceOf(InvalidIdentifierException.class);
        assertThat(ran).hasValue(0);
        assertThat(storage.listAgents()).as("nothing written").isEmpty();

        assertThat(pipeline.run(longest, "input").isCompleted()).isTrue();
        assertThat(storage.getCheckpoints(Pipeline.storedRunId(longest))).hasSize(3);
        assertThat(Pipeline.storedRunId(longest)).isEqualTo("@run/" + longest);
        assertThatThrownBy(() -> pipeline.rerunFrom(longest, "count", tooLong))
                .isInstanceOf(InvalidIdentifierException.class);
        assertThat(storage.listAgents()).containsExactly(Pipeline.storedRunId(longest));
    }

    /** Stands for the process dying: nothing in the runner catches it. */
    private static final class Crash extends Error {
        Crash() {
            super("simulated crash");
        }
    }

    private Pipeline<String> pipeline() {
        return Pipeline.builder(PIPELINE, StateCodec.jackson(String.class))
                .storage(storage)
                .rollbackTools(inverses)
                .node(Node.<String>of("charge", ctx -> {
                    ctx.callTool(charge, amount(100));
                    return ctx.state() + " charged";
                }))
                .node(Node.<String>of("ship", ctx -> {
                    ctx.callTool(ship, JsonNodeFactory.instance.objectNode());
                    return ctx.state() + " shipped";
                }))
                .build();
    }

    private static JsonNode amount(int amount) {
        return JsonNodeFactory.instance.objectNode().put("amount", amount);
    }

    private static Map<String, JsonNode> runState(String state) {
        return Map.of("pipeline", TextNode.valueOf(PIPELINE), "pipeline.state", TextNode.valueOf(state));
    }

    private static ObjectNode entry(String kind, String node, int attempt) {
        return JsonNodeFactory.instance
                .objectNode()
                .put("kind", kind)
                .put("node", node)
                .put("attempt", attempt);
    }

    /** Saves a checkpoint straight through the provider, as an earlier version stored it. */
    private void save(
            String agentId, long version, String node, Map<String, JsonNode> state, Map<String, String> meta) {
        var parent = new ArrayList<>(storage.getCheckpoints(agentId));
        storage.saveCheckpoint(
                agentId,
                AgentCheckpoint.builder()
                        .agentId(agentId)
                        .checkpointId(UUID.randomUUID().toString())
                        .version(version)
                        .createdAt(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(version))
                        .nodeId(node)
                        .state(state)
                        .metadata(meta)
                        .parentCheckpointId(
                                parent.isEmpty()
                                        ? null
                                        : parent.get(parent.size() - 1).checkpointId())
                        .build());
    }
}
