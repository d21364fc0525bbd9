package dev.agentpersistence.langgraph4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.bsc.langgraph4j.StateGraph.END;
import static org.bsc.langgraph4j.StateGraph.START;
import static org.bsc.langgraph4j.action.AsyncNodeAction.node_async;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.langgraph4j.StateSerializers.Order;
import dev.agentpersistence.langgraph4j.StateSerializers.Status;
import dev.agentpersistence.langgraph4j.StateSerializers.Ticket;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.bsc.langgraph4j.CompileConfig;
import org.bsc.langgraph4j.CompiledGraph;
import org.bsc.langgraph4j.GraphInput;
import org.bsc.langgraph4j.GraphStateException;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.checkpoint.BaseCheckpointSaver;
import org.bsc.langgraph4j.checkpoint.MemorySaver;
import org.bsc.langgraph4j.serializer.StateSerializer;
import org.bsc.langgraph4j.state.AgentState;
import org.bsc.langgraph4j.state.Channel;
import org.bsc.langgraph4j.state.Channels;
import org.junit.jupiter.api.Test;

/**
 * Graphs as their users write them: records, enums and LangChain4j messages put straight into the state, under
 * LangGraph4j's default object-stream serializer and under its Jackson serializer. Each graph pauses before its second
 * node, the store is closed and opened again with a new saver (a restart), and the resumed run ends with the state a
 * {@link MemorySaver} run ends with. Run against every storage technology of the module's tests.
 */
interface SerializedStateContract {
    /** A fresh provider over the test's storage; a second call opens the same storage again. */
    PersistenceStorageProvider<CheckpointFilter> openProvider();

    /** What the three nodes return (each also appends its name to {@code steps}). */
    record Steps(Map<String, Object> input, Map<String, Object> first, Map<String, Object> second) {}

    /** The run that paused, the stored checkpoints after the resume and the final state. */
    record Run(Map<String, Object> paused, List<AgentCheckpoint> stored, Map<String, Object> finished) {}

    /** {@code n1 → n2 → n3} with appender channels {@code steps} and {@code messages}. */
    private static StateGraph<AgentState> graph(StateSerializer<AgentState> serializer, Steps steps)
            throws GraphStateException {
        Map<String, Channel<?>> channels =
                Map.of("steps", Channels.appender(ArrayList::new), "messages", Channels.appender(ArrayList::new));
        StateGraph<AgentState> graph = serializer == null
                ? new StateGraph<>(channels, AgentState::new)
                : new StateGraph<>(channels, serializer);
        return graph.addNode("n1", node_async(state -> with(steps.first(), "n1")))
                .addNode("n2", node_async(state -> with(steps.second(), "n2")))
                .addNode("n3", node_async(state -> with(Map.of("done", true), "n3")))
                .addEdge(START, "n1")
                .addEdge("n1", "n2")
                .addEdge("n2", "n3")
                .addEdge("n3", END);
    }

    private static Map<String, Object> with(Map<String, Object> update, String step) {
        var out = new HashMap<>(update);
        out.put("steps", step);
        return out;
    }

    private static CompiledGraph<AgentState> compile(StateGraph<AgentState> graph, BaseCheckpointSaver saver)
            throws GraphStateException {
        return graph.compile(CompileConfig.builder()
                .checkpointSaver(saver)
                .interruptBefore("n2")
                .build());
    }

    /**
     * Runs the graph to its pause over one provider, then resumes it over a new provider and a new saver, and checks
     * the resumed run against a {@link MemorySaver} run.
     */
    private Run pauseRestartResume(
            StateSerializer<AgentState> serializer,
            Function<PersistenceStorageProvider<CheckpointFilter>, AgentPersistenceSaver> saverOf,
            Steps steps)
            throws Exception {
        RunnableConfig config = RunnableConfig.builder()
                .threadId("serialized-" + UUID.randomUUID())
                .build();
        Map<String, Object> paused;
        try (var before = openProvider()) {
            paused = compile(graph(serializer, steps), saverOf.apply(before))
                    .invoke(steps.input(), config)
                    .orElseThrow()
                    .data();
        }
        var reference = compile(graph(serializer, steps), new MemorySaver());
        reference.invoke(steps.input(), config);
        Map<String, Object> expected =
                reference.invoke(GraphInput.resume(), config).orElseThrow().data();

        try (var after = openProvider()) {
            AgentPersistenceSaver saver = saverOf.apply(after);
            try {
                var graph = compile(graph(serializer, steps), saver);
                var snapshot = graph.getState(config);
                assertThat(snapshot.next()).isEqualTo("n2");
                assertThat(snapshot.state().data()).isEqualTo(paused);
                Map<String, Object> finished =
                        graph.invoke(GraphInput.resume(), config).orElseThrow().data();
                assertThat(finished).isEqualTo(expected).containsEntry("done", true);
                List<String> history = GraphResumeTest.describe(graph, config);
                assertThat(history).isEqualTo(GraphResumeTest.describe(reference, config));
                return new Run(paused, after.getCheckpoints(saver.agentId(saver.threadId(config))), finished);
            } finally {
                saver.release(config);
            }
        }
    }

    @Test
    default void aSerializableRecordUnderTheDefaultSerializerPausesAndResumesAfterARestart() throws Exception {
        var order = new Order("o-1", new BigDecimal("12.50"), List.of("book", "pen"), Status.OPEN);
        var paid = new Order("o-1", new BigDecimal("12.50"), List.of("book", "pen"), Status.PAID);
        Run run = pauseRestartResume(
                null,
                AgentPersistenceSaver::of,
                new Steps(
                        Map.of("input", "checkout"),
                        Map.of("order", order, "status", Status.OPEN, "ratio", Double.NaN),
                        Map.of("order", paid, "status", Status.PAID)));

        assertThat(run.paused()).containsEntry("order", order).containsEntry("status", Status.OPEN);
        assertThat(run.finished())
                .containsEntry("order", paid)
                .containsEntry("status", Status.PAID)
                .containsEntry("steps", List.of("n1", "n2", "n3"));
        assertThat((Double) run.finished().get("ratio")).isNaN();
        AgentCheckpoint last = run.stored().get(run.stored().size() - 1);
        assertThat(last.metadata())
                .containsEntry(AgentPersistenceSaver.SERIALIZED_KEYS, "[\"order\",\"ratio\",\"status\"]")
                .containsEntry(
                        AgentPersistenceSaver.SERIALIZER,
                        org.bsc.langgraph4j.serializer.std.ObjectStreamStateSerializer.class.getName());
        // JSON-mappable values stay JSON next to the serialized ones
        assertThat(last.state().get("steps").isArray()).isTrue();
        assertThat(last.state().get("input").textValue()).isEqualTo("checkout");
        assertThat(last.state().get("order").isTextual()).isTrue();
        assertThat(run.stored().get(0).metadata()).doesNotContainKey(AgentPersistenceSaver.SERIALIZED_KEYS);
    }

    @Test
    default void langChain4jMessagesThroughTheGraphsObjectStreamSerializerResumeAfterARestart() throws Exception {
        var serializer = StateSerializers.objectStreamWithChatMessages();
        Run run = pauseRestartResume(
                serializer,
                provider -> AgentPersistenceSaver.builder(provider)
                        .stateSerializer(serializer)
                        .build(),
                new Steps(
                        Map.of("messages", SystemMessage.from("Be brief.")),
                        Map.of("messages", UserMessage.from("Where is my order?")),
                        Map.of("messages", AiMessage.from("It ships today."))));

        assertThat(run.finished().get("messages"))
                .isEqualTo(List.of(
                        SystemMessage.from("Be brief."),
                        UserMessage.from("Where is my order?"),
                        AiMessage.from("It ships today.")));
        assertThat(run.stored().get(run.stored().size() - 1).metadata())
                .containsEntry(AgentPersistenceSaver.SERIALIZED_KEYS, "[\"messages\"]");
    }

    @Test
    default void recordsThroughTheGraphsJacksonSerializerResumeAfterARestart() throws Exception {
        var serializer = StateSerializers.jacksonWithTickets();
        Run run = pauseRestartResume(
                serializer,
                provider -> AgentPersistenceSaver.builder(provider)
                        .stateSerializer(serializer)
                        .build(),
                new Steps(
                        Map.of("input", "triage"),
                        Map.of("ticket", new Ticket("t-7", 2, List.of("billing"))),
                        Map.of("ticket", new Ticket("t-7", 1, List.of("billing", "urgent")))));

        assertThat(run.finished()).containsEntry("ticket", new Ticket("t-7", 1, List.of("billing", "urgent")));
        assertThat(run.stored().get(run.stored().size() - 1).metadata())
                .containsEntry(AgentPersistenceSaver.SERIALIZED_KEYS, "[\"ticket\"]")
                .containsEntry(
                        AgentPersistenceSaver.SERIALIZER, serializer.getClass().getName());
    }

    @Test
    default void aJsonOnlySaverRefusesSuchValuesAndDoesNotReadThem() throws Exception {
        var order = new Order("o-2", BigDecimal.ONE, List.of(), Status.OPEN);
        RunnableConfig config = RunnableConfig.builder()
                .threadId("json-only-" + UUID.randomUUID())
                .build();
        try (var provider = openProvider()) {
            var jsonOnly = AgentPersistenceSaver.builder(provider).jsonOnly().build();
            var steps = new Steps(Map.of("input", "x"), Map.of("order", order), Map.of());
            assertThatThrownBy(() -> compile(graph(null, steps), jsonOnly).invoke(steps.input(), config))
                    .hasStackTraceContaining(UnsupportedStateValueException.class.getName())
                    .hasStackTraceContaining("'order'");
            // only the checkpoint LangGraph4j puts before the first node, which holds JSON only
            assertThat(jsonOnly.list(config))
                    .extracting(org.bsc.langgraph4j.checkpoint.Checkpoint::getNodeId)
                    .containsExactly(StateGraph.START);
            jsonOnly.release(config);

            var serializing = AgentPersistenceSaver.of(provider);
            try {
                compile(graph(null, steps), serializing).invoke(steps.input(), config);
                assertThatThrownBy(() -> jsonOnly.get(config))
                        .isInstanceOfSatisfying(
                                UnreadableStateValueException.class,
                                e -> assertThat(e.key()).isEqualTo("order"))
                        .hasMessageContaining("JSON only");
                Map<String, JsonNode> stored = provider.getLatestCheckpoint(
                                serializing.agentId(serializing.threadId(config)))
                        .orElseThrow()
                        .state();
                assertThat(stored.get("input").textValue()).isEqualTo("x");
            } finally {
                serializing.release(config);
            }
        }
    }
}
