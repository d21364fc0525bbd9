package dev.agentpersistence.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.examples.ServerBackends;
import dev.agentpersistence.examples.StorageSelection;
import dev.agentpersistence.pipeline.Pipeline;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DocumentPipelineDemoTest {
    @TempDir
    Path directory;

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

    private DocumentPipelineDemo.Outcome run(StorageSelection storage, String runId) {
        return DocumentPipelineDemo.run(storage, directory.resolve("workspace"), runId, out);
    }

    private String output() {
        return printed.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theDefaultSqliteRunShowsRollbackRetryCrashAndResumeAndEndsWithAValidDocument() {
        var outcome = run(StorageSelection.sqlite(directory.resolve("demo.db")), "doc-1");

        assertThat(outcome.succeeded()).isTrue();
        assertThat(outcome.crashed()).isTrue();
        assertThat(outcome.resumed().isCompleted()).isTrue();
        assertThat(outcome.resumed().resumedAfter()).contains(DocumentPipeline.CONCEPTS_WRITER);
        assertThat(outcome.resumed().executedNodes()).containsExactly(DocumentPipeline.VISUALIZATION_WRITER);
        assertThat(outcome.finalViolations()).isEmpty();
        assertFinishedDocument(outcome);
        assertHistory(outcome.history());

        var prompts = outcome.conceptsPrompts();
        assertThat(prompts).hasSize(2);
        assertThat(prompts.get(0)).doesNotContain("ROLLBACK PERFORMED");
        assertThat(prompts.get(1))
                .startsWith("[RETRY ATTEMPT 1/3]")
                .contains("ROLLBACK PERFORMED")
                .contains("- 3-5 concept blocks expected, found 7");

        String text = output();
        assertThat(text)
                .contains(
                        "postcondition failed: 3-5 concept blocks expected, found 7",
                        "rolled back: workspace restored to its state before attempt 1",
                        "retry 1/3 with this feedback",
                        "CRASH: simulated crash",
                        "(claim)               checkpoint v3 saved: a copy of v2 (concepts-writer) that makes this"
                                + " process the run's only runner",
                        "resumed after concepts-writer",
                        "visualization-writer  passed, checkpoint v4 saved",
                        "the half-written section of the crashed node is discarded",
                        "nodes run: [visualization-writer], skipped: [overview-writer, concepts-writer]",
                        "passes all 14 postconditions");
        assertThat(text.lines().count()).as("the demo's output stays short").isLessThan(60);
    }

    private static void assertFinishedDocument(DocumentPipelineDemo.Outcome outcome) {
        String doc = outcome.resumed().state().read(MarkdownDocument.FILE);
        assertThat(MarkdownDocument.currentAgent(doc)).contains(DocumentPipeline.DONE);
        assertThat(MarkdownDocument.conceptBlocks(doc)).hasSize(4);
        for (String agent : DocumentPipeline.AGENTS) {
            assertThat(MarkdownDocument.handedOff(doc, agent))
                    .as("handoff of %s", agent)
                    .isTrue();
        }
        assertThat(doc).containsOnlyOnce("# Visualization").doesNotContain("PARTIAL");
        assertThat(outcome.resumed().state().read(MarkdownDocument.VISUALIZATION_FILE))
                .startsWith("flowchart TD");
        for (var condition : DocumentPipeline.finalDocumentConditions()) {
            assertThat(condition.check(outcome.resumed().state()))
                    .as(condition.name())
                    .isEmpty();
        }
    }

    private static void assertHistory(List<AgentCheckpoint> history) {
        assertThat(history)
                .extracting(AgentCheckpoint::nodeId)
                .containsExactly(
                        Pipeline.START_NODE_ID,
                        DocumentPipeline.OVERVIEW_WRITER,
                        DocumentPipeline.CONCEPTS_WRITER,
                        DocumentPipeline.CONCEPTS_WRITER,
                        DocumentPipeline.VISUALIZATION_WRITER,
                        AgentCheckpoint.TOMBSTONE_NODE_ID);
        assertThat(history).extracting(AgentCheckpoint::version).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        assertThat(history.get(2).metadata()).containsEntry("pipeline.attempts", "2");
        assertThat(history.get(2).messageHistory())
                .as("the failed attempt's messages are not kept")
                .hasSize(4);
        assertThat(history.get(3).metadata())
                .as("run 2 claims the run with a copy of the newest checkpoint of run 1")
                .containsEntry(Pipeline.CLAIMED_METADATA_KEY, history.get(2).checkpointId());
        assertThat(history.get(3).state()).isEqualTo(history.get(2).state());
        assertThat(history.get(4).messageHistory()).hasSize(6);
    }

    @Test
    void theHistoryTableListsEveryCheckpoint() {
        var outcome = run(StorageSelection.sqlite(directory.resolve("demo.db")), "doc-table");

        var lines = HistoryTable.lines(outcome.history());
        assertThat(lines).hasSize(7);
        assertThat(lines.get(0)).contains("version", "node", "created (UTC)", "messages", "size");
        assertThat(lines.get(3)).contains("2", "concepts-writer", " 4 ").matches(".*\\d+(\\.\\d)? k?B$");
        assertThat(lines.get(4)).contains("3", "concepts-writer").endsWith("claim: a copy of v2");
        assertThat(output()).contains(lines.toArray(String[]::new));
    }

    @Test
    void aRepeatedRunStartsCleanByDeletingTheEarlierCheckpoints() {
        var storage = StorageSelection.sqlite(directory.resolve("demo.db"));
        var first = run(storage, "doc-again");
        var second = run(storage, "doc-again");

        assertThat(first.removedEarlier()).isZero();
        assertThat(second.removedEarlier()).isEqualTo(6);
        assertThat(second.succeeded()).isTrue();
        assertThat(second.history()).hasSize(6);
        assertThat(output()).contains("6 checkpoints of an earlier demo run deleted");
    }

    @Test
    void aDemoRunOfAnEarlierVersionUnderTheRawRunIdIsDeletedTooSoTheRunStartsClean() {
        var storage = StorageSelection.sqlite(directory.resolve("demo.db"));
        run(storage, "doc-old");
        try (var provider = storage.open()) {
            // as an earlier version stored the run: under the raw run id
            for (AgentCheckpoint checkpoint : provider.getCheckpoints(Pipeline.storedRunId("doc-old"))) {
                provider.saveCheckpoint(
                        "doc-old", checkpoint.toBuilder().agentId("doc-old").build());
            }
            provider.deleteCheckpoints(Pipeline.storedRunId("doc-old"));
        }

        var again = run(storage, "doc-old");

        assertThat(again.removedEarlier()).isEqualTo(6);
        assertThat(again.crashed()).as("run 1 started from scratch").isTrue();
        assertThat(again.succeeded()).isTrue();
        assertHistory(again.history());
        try (var provider = storage.open()) {
            assertThat(provider.getCheckpoints("doc-old")).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"file", "jsonl", "postgresql", "mariadb", "redis"})
    void theStorageOptionSwitchesBackendsWithTheSameOutcome(String backend) {
        String spec = switch (backend) {
            case "file" -> "file:" + directory.resolve("checkpoints");
            case "jsonl" -> "jsonl:" + directory.resolve("jsonl");
            case "postgresql" -> ServerBackends.postgres();
            case "mariadb" -> ServerBackends.mariadb();
            case "redis" -> ServerBackends.redis();
            default -> throw new IllegalArgumentException(backend);
        };
        var storage = StorageSelection.parse(spec, ServerBackends.ISOLATION);
        String runId = "doc-" + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36);

        var outcome = run(storage, runId);

        assertThat(outcome.succeeded()).as(output()).isTrue();
        assertThat(outcome.resumed().executedNodes()).containsExactly(DocumentPipeline.VISUALIZATION_WRITER);
        assertHistory(outcome.history());
        assertFinishedDocument(outcome);
        try (var provider = storage.open()) {
            assertThat(provider.deleteCheckpoints(Pipeline.storedRunId(runId))).isEqualTo(6);
        }
    }
}
