package dev.agentpersistence.langgraph4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.bsc.langgraph4j.StateGraph.END;
import static org.bsc.langgraph4j.StateGraph.START;
import static org.bsc.langgraph4j.action.AsyncNodeAction.node_async;

import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.langgraph4j.StateSerializers.Order;
import dev.agentpersistence.langgraph4j.StateSerializers.Status;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.ChildJvm;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bsc.langgraph4j.CompileConfig;
import org.bsc.langgraph4j.GraphInput;
import org.bsc.langgraph4j.GraphStateException;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.checkpoint.MemorySaver;
import org.bsc.langgraph4j.state.AgentState;
import org.bsc.langgraph4j.state.Channels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real JVM restart: a child JVM runs the graph over a SQLite file and is killed while node 2 runs; this JVM resumes
 * the thread from the checkpoint node 1 left and finishes it. Node 1 puts a record and an enum straight into the state
 * (stored through LangGraph4j's default object-stream serializer), node 2 replaces the record.
 */
class JvmRestartTest {
    private static final String THREAD = "survives-a-restart";
    private static final Order OPEN = new Order("o-9", new BigDecimal("99.90"), List.of("lamp"), Status.OPEN);
    private static final Order PAID = new Order("o-9", new BigDecimal("99.90"), List.of("lamp"), Status.PAID);

    @TempDir
    Path dir;

    /** The graph of {@link GraphResumeTest}; in the child, node 2 announces itself and hangs. */
    static StateGraph<AgentState> graph(Path hangMarker) throws GraphStateException {
        return new StateGraph<>(Map.of("steps", Channels.appender(ArrayList::new)), AgentState::new)
                .addNode(
                        "n1",
                        node_async(state -> Map.of("steps", "n1", "count", 1, "order", OPEN, "status", Status.OPEN)))
                .addNode("n2", node_async(state -> {
                    if (hangMarker != null) {
                        try {
                            Files.writeString(hangMarker, "in n2");
                            Thread.sleep(Long.MAX_VALUE);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }
                    return Map.of("steps", "n2", "count", 2, "order", PAID);
                }))
                .addNode("n3", node_async(state -> Map.of("steps", "n3", "count", 3, "done", true)))
                .addEdge(START, "n1")
                .addEdge("n1", "n2")
                .addEdge("n2", "n3")
                .addEdge("n3", END);
    }

    private static StorageShell open(Path db) {
        return JdbcStorage.builder(
                        JdbcStorageConfig.custom().url("jdbc:sqlite:" + db).build())
                .build();
    }

    /** Child JVM: {@code <database> <marker>}. Never returns on its own: node 2 hangs until killed. */
    public static void main(String[] args) throws Exception {
        try (var provider = open(Path.of(args[0]))) {
            var graph = graph(Path.of(args[1]))
                    .compile(CompileConfig.builder()
                            .checkpointSaver(AgentPersistenceSaver.of(provider))
                            .build());
            graph.invoke(Map.of("input", "go"), GraphResumeTest.thread(THREAD));
        }
    }

    @Test
    void aThreadKilledInNodeTwoResumesInANewJvm() throws Exception {
        Path db = dir.resolve("graph.db");
        Path marker = dir.resolve("in-n2");
        try (var child = ChildJvm.start(JvmRestartTest.class, db.toString(), marker.toString())) {
            child.awaitFile(marker, Duration.ofSeconds(60));
            child.kill();
        }

        try (var provider = open(db)) {
            var graph = graph(null)
                    .compile(CompileConfig.builder()
                            .checkpointSaver(AgentPersistenceSaver.of(provider))
                            .build());
            var config = GraphResumeTest.thread(THREAD);
            assertThat(graph.getState(config).next()).isEqualTo("n2");
            assertThat(graph.getState(config).state().data())
                    .containsEntry("order", OPEN)
                    .containsEntry("status", Status.OPEN);

            var finished = graph.invoke(GraphInput.resume(), config).orElseThrow();

            assertThat(finished.data())
                    .containsEntry("steps", List.of("n1", "n2", "n3"))
                    .containsEntry("done", true)
                    .containsEntry("input", "go")
                    .containsEntry("order", PAID)
                    .containsEntry("status", Status.OPEN);
            var reference = graph(null)
                    .compile(CompileConfig.builder()
                            .checkpointSaver(new MemorySaver())
                            .build());
            var expected = reference.invoke(Map.of("input", "go"), config).orElseThrow();
            assertThat(finished.data()).isEqualTo(expected.data());
            assertThat(GraphResumeTest.describe(graph, config)).isEqualTo(GraphResumeTest.describe(reference, config));
        }
    }
}
