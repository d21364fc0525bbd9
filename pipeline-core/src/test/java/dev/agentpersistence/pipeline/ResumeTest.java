package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Resuming a run in the same JVM, on the file provider: what is skipped, what is restored, what is refused. */
class ResumeTest {
    @TempDir
    Path tmp;

    private PersistenceStorageProvider<CheckpointFilter> storage;
    private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

    @BeforeEach
    void open() {
        storage = Storages.file(tmp.resolve("checkpoints"));
    }

    @AfterEach
    void close() {
        storage.close();
    }

    private NodeAction<Draft> step(String name) {
        return ctx -> {
            runs.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
            return ctx.state().append(name, name);
        };
    }

    private int runsOf(String node) {
        return runs.getOrDefault(node, new AtomicInteger()).get();
    }

    private Pipeline<Draft> letters(String pipelineName, boolean cWorks) {
        return Pipeline.builder(pipelineName, Draft.CODEC)
                .storage(storage)
                .node(Node.of("a", step("a")))
                .node(Node.of("b", step("b")))
                .node(Node.<Draft>builder("c")
                        .postcondition(Conditions.of("c works", d -> cWorks, d -> "c is broken"))
                        .action(step("c"))
                        .build())
                .node(Node.of("d", step("d")))
                .build();
    }

    @Test
    void finishedNodesAreSkippedAndTheStateComesFromTheCheckpointNotTheInput() {
        var first = letters("letters", false).run("r1", Draft.empty());
        assertThat(first.failure()).get().extracting(PipelineFailure::node).isEqualTo("c");
        assertThat(first.state()).isEqualTo(new Draft("ab", java.util.List.of("a", "b")));

        var second = letters("letters", true).run("r1", new Draft("ignored input", java.util.List.of()));

        assertThat(second.isCompleted()).isTrue();
        assertThat(second.resumedAfter()).contains("b");
        assertThat(second.executedNodes()).containsExactly("c", "d");
        assertThat(second.state().text()).isEqualTo("abcd");
        assertThat(runsOf("a")).isEqualTo(1);
        assertThat(runsOf("b")).isEqualTo(1);
        assertThat(runsOf("c")).isEqualTo(5);
        assertThat(runsOf("d")).isEqualTo(1);
    }

    @Test
    void aCompletedRunReturnsItsResultWithoutRunningAnything() {
        Path wsDir = tmp.resolve("workspace");
        var first = DocumentPipeline.builder(wsDir, ScriptedModel.allCorrect())
                .storage(storage)
                .build()
                .run("done-1", DocumentPipeline.newWorkspace(wsDir));
        String finalDoc = Docs.read(first.state());
        FileWorkspace.at(wsDir).write(Docs.FILE, "edited after completion");
        FileWorkspace.at(wsDir).write("stray.txt", "x");
        int checkpoints = storage.getCheckpoints(Pipeline.storedRunId("done-1")).size();

        var model = ScriptedModel.allCorrect();
        var events = new RecordingListener();
        var again = DocumentPipeline.builder(wsDir, model)
                .storage(storage)
                .listener(events)
                .build()
                .run("done-1", FileWorkspace.at(wsDir));

        assertThat(again.isCompleted()).isTrue();
        assertThat(again.alreadyCompleted()).isTrue();
        assertThat(again.executedNodes()).isEmpty();
        assertThat(again.resumedAfter()).contains("visualization-writer");
        assertThat(again.messageHistory()).isEqualTo(first.messageHistory());
        assertThat(Docs.read(again.state())).isEqualTo(finalDoc);
        assertThat(FileWorkspace.at(wsDir).files()).containsExactly(Docs.FILE, "visualization.mmd");
        DocumentPipeline.AGENTS.forEach(agent -> assertThat(model.calls(agent)).isZero());
        assertThat(storage.getCheckpoints(Pipeline.storedRunId("done-1"))).hasSize(checkpoints);
        assertThat(events.of(PipelineEvent.RunFinished.class))
                .singleElement()
                .satisfies(f -> assertThat(f.alreadyCompleted()).isTrue());
        assertThat(events.of(PipelineEvent.NodeStarted.class)).isEmpty();
    }

    @Test
    void aRunWhoseCompletionMarkerWasNotSavedIsMarkedByTheNextCall() {
        var outage = new OutageStorage(Storages.file(tmp.resolve("other-checkpoints")));
        try (outage) {
            Pipeline<Draft> pipeline = Pipeline.builder("letters", Draft.CODEC)
                    .storage(outage)
                    .checkpointRetry(RetryPolicy.noRetries())
                    .node(Node.of("a", step("a")))
                    .build();
            outage.failSaves(1, AgentCheckpoint::isTombstone);

            var first = pipeline.run("r2", Draft.empty());
            assertThat(first.isCompleted()).isTrue();
            assertThat(outage.getLatestCheckpoint(Pipeline.storedRunId("r2")))
                    .get()
                    .extracting(AgentCheckpoint::nodeId)
                    .isEqualTo("a");

            var second = pipeline.run("r2", Draft.empty());
            assertThat(second.isCompleted()).isTrue();
            assertThat(second.alreadyCompleted()).isTrue();
            assertThat(second.executedNodes()).isEmpty();
            assertThat(second.state().text()).isEqualTo("a");
            assertThat(outage.getLatestCheckpoint(Pipeline.storedRunId("r2")))
                    .get()
                    .matches(AgentCheckpoint::isTombstone);
            assertThat(runsOf("a")).isEqualTo(1);
        }
    }

    @Test
    void aRunOfAnotherPipelineIsRefused() {
        letters("letters", false).run("r3", Draft.empty());

        assertThatThrownBy(() -> letters("numbers", true).run("r3", Draft.empty()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("run 'r3' belongs to pipeline 'letters', not 'numbers'");
    }

    @Test
    void aCheckpointNamingANodeThePipelineLacksIsRefused() {
        letters("letters", false).run("r4", Draft.empty());
        Pipeline<Draft> renamed = Pipeline.builder("letters", Draft.CODEC)
                .storage(storage)
                .node(Node.of("first", step("first")))
                .build();

        assertThatThrownBy(() -> renamed.run("r4", Draft.empty()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("checkpointed after node 'b', which pipeline 'letters' does not have");
    }

    @Test
    void aStateTheCodecCannotDecodeIsReportedWithTheCheckpoint() {
        letters("letters", false).run("r5", Draft.empty());
        Pipeline<Counter> other = Pipeline.builder("letters", StateCodec.jackson(Counter.class))
                .storage(storage)
                .node(Node.of("a", ctx -> ctx.state()))
                .node(Node.of("b", ctx -> ctx.state()))
                .node(Node.of("c", ctx -> ctx.state()))
                .build();

        assertThatThrownBy(() -> other.run("r5", new Counter(0)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("of run 'r5' holds a state")
                .hasMessageContaining("cannot decode");
    }

    record Counter(int value) {}
}
