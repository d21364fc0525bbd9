package dev.agentpersistence.langgraph4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.bsc.langgraph4j.StateGraph.END;
import static org.bsc.langgraph4j.StateGraph.START;
import static org.bsc.langgraph4j.action.AsyncNodeAction.node_async;

import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.storage.StorageShell;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bsc.langgraph4j.CompileConfig;
import org.bsc.langgraph4j.CompiledGraph;
import org.bsc.langgraph4j.GraphInput;
import org.bsc.langgraph4j.GraphStateException;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.checkpoint.BaseCheckpointSaver;
import org.bsc.langgraph4j.checkpoint.MemorySaver;
import org.bsc.langgraph4j.state.AgentState;
import org.bsc.langgraph4j.state.Channels;
import org.bsc.langgraph4j.state.StateSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real three-node LangGraph4j graph, interrupted and resumed through a SQLite file. */
class GraphResumeTest {
    @TempDir
    Path dir;

    /** {@code n1 → n2 → n3}; each node appends its name to {@code steps} and counts. */
    static StateGraph<AgentState> graph() throws GraphStateException {
        return new StateGraph<>(Map.of("steps", Channels.appender(ArrayList::new)), AgentState::new)
                .addNode("n1", node_async(state -> Map.of("steps", "n1", "count", 1)))
                .addNode("n2", node_async(state -> Map.of("steps", "n2", "count", 2)))
                .addNode("n3", node_async(state -> Map.of("steps", "n3", "count", 3, "done", true)))
                .addEdge(START, "n1")
                .addEdge("n1", "n2")
                .addEdge("n2", "n3")
                .addEdge("n3", END);
    }

    static CompiledGraph<AgentState> compile(BaseCheckpointSaver saver, boolean interrupt) throws GraphStateException {
        var config = CompileConfig.builder().checkpointSaver(saver);
        if (interrupt) {
            config.interruptBefore("n2");
        }
        return graph().compile(config.build());
    }

    static RunnableConfig thread(String id) {
        return RunnableConfig.builder().threadId(id).build();
    }

    /** What a history says, without the random checkpoint ids. */
    static List<String> describe(CompiledGraph<AgentState> graph, RunnableConfig config) {
        var lines = new ArrayList<String>();
        for (StateSnapshot<AgentState> snapshot : graph.getStateHistory(config)) {
            lines.add(snapshot.node() + " -> " + snapshot.next() + " "
                    + new java.util.TreeMap<>(snapshot.state().data()));
        }
        return lines;
    }

    private StorageShell openSqlite() {
        return JdbcStorage.builder(JdbcStorageConfig.custom()
                        .url("jdbc:sqlite:" + dir.resolve("graph.db"))
                        .build())
                .build();
    }

    @Test
    void aNewSaverOverANewProviderResumesTheInterruptedThread() throws Exception {
        RunnableConfig config = thread("resume-me");
        try (var provider = openSqlite()) {
            var graph = compile(AgentPersistenceSaver.of(provider), true);
            var stopped = graph.invoke(Map.of("input", "go"), config).orElseThrow();
            assertThat(stopped.data()).containsEntry("steps", List.of("n1")).doesNotContainKey("done");
            assertThat(graph.getState(config).next()).isEqualTo("n2");
        }

        List<String> resumedHistory;
        try (var provider = openSqlite()) {
            var graph = compile(AgentPersistenceSaver.of(provider), true);
            var finished = graph.invoke(GraphInput.resume(), config).orElseThrow();
            assertThat(finished.data())
                    .containsEntry("steps", List.of("n1", "n2", "n3"))
                    .containsEntry("done", true)
                    .containsEntry("count", 3)
                    .containsEntry("input", "go");
            resumedHistory = describe(graph, config);
        }

        var reference = compile(new MemorySaver(), false);
        reference.invoke(Map.of("input", "go"), config);
        assertThat(resumedHistory).isEqualTo(describe(reference, config));

        try (var provider = openSqlite()) {
            var unInterrupted = compile(AgentPersistenceSaver.of(provider), false);
            RunnableConfig other = thread("straight-through");
            unInterrupted.invoke(Map.of("input", "go"), other);
            assertThat(describe(unInterrupted, other)).isEqualTo(resumedHistory);
        }
    }

    @Test
    void updateStateWhileInterruptedBehavesAsWithMemorySaver() throws Exception {
        RunnableConfig config = thread("edited");
        List<String> ours;
        try (var provider = openSqlite()) {
            var graph = compile(AgentPersistenceSaver.of(provider), true);
            graph.invoke(Map.of("input", "go"), config);
            RunnableConfig updated =
                    graph.updateState(graph.getState(config).config(), Map.of("steps", "human", "note", "edited"));
            graph.invoke(GraphInput.resume(), updated);
            ours = describe(graph, config);
        }
        var reference = compile(new MemorySaver(), true);
        reference.invoke(Map.of("input", "go"), config);
        RunnableConfig updated =
                reference.updateState(reference.getState(config).config(), Map.of("steps", "human", "note", "edited"));
        reference.invoke(GraphInput.resume(), updated);

        assertThat(ours).isEqualTo(describe(reference, config));
        assertThat(ours.get(0)).contains("steps=[n1, human, n2, n3]").contains("note=edited");
    }

    @Test
    void releaseThreadAtTheEndClearsTheThreadInTheStore() throws Exception {
        try (var provider = openSqlite()) {
            var saver = AgentPersistenceSaver.of(provider);
            var graph = graph().compile(CompileConfig.builder()
                    .checkpointSaver(saver)
                    .releaseThread(true)
                    .build());
            graph.invoke(Map.of("input", "go"), thread("released"));
            assertThat(provider.getCheckpoints(saver.agentId("released"))).isEmpty();
        }
    }
}
