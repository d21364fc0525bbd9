package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.pipeline.PipelineEvent.CheckpointSaved;
import dev.agentpersistence.pipeline.PipelineEvent.NodeFailed;
import dev.agentpersistence.pipeline.PipelineEvent.NodeStarted;
import dev.agentpersistence.pipeline.PipelineEvent.RetryScheduled;
import dev.agentpersistence.pipeline.PipelineEvent.RollbackPerformed;
import dev.agentpersistence.pipeline.PipelineEvent.ValidationFailed;
import dev.agentpersistence.pipeline.ScriptedModel.Mode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write-up's document pipeline on a {@link FileWorkspace} and the file provider, with a scripted model: every
 * branch of its flowchart.
 */
class DocumentPipelineTest {
    private static final String RUN = "doc-run-1";

    @TempDir
    Path tmp;

    private Path wsDir;
    private PersistenceStorageProvider<CheckpointFilter> storage;
    private final RecordingListener events = new RecordingListener();
    private long backupsBefore;

    @BeforeEach
    void setUp() throws IOException {
        wsDir = tmp.resolve("workspace");
        storage = Storages.file(tmp.resolve("checkpoints"));
        backupsBefore = backupDirectories();
    }

    @AfterEach
    void tearDown() throws IOException {
        storage.close();
        assertThat(backupDirectories()).as("backup directories left behind").isEqualTo(backupsBefore);
    }

    private Pipeline<FileWorkspace> pipeline(ScriptedModel model) {
        return DocumentPipeline.builder(wsDir, model)
                .storage(storage)
                .listener(events)
                .build();
    }

    private String doc() {
        return Docs.read(FileWorkspace.at(wsDir));
    }

    @Test
    void everyAgentPassingFirstTimeRunsOnceAndCheckpointsAfterEachNode() {
        var model = ScriptedModel.allCorrect();

        var result = pipeline(model).run(RUN, DocumentPipeline.newWorkspace(wsDir));

        assertThat(result.isCompleted()).as(result.toString()).isTrue();
        assertThat(result.executedNodes()).containsExactlyElementsOf(DocumentPipeline.AGENTS);
        assertThat(result.resumedAfter()).isEmpty();
        assertThat(result.alreadyCompleted()).isFalse();
        DocumentPipeline.AGENTS.forEach(agent -> assertThat(model.calls(agent)).isEqualTo(1));
        assertThat(doc())
                .contains(
                        "# Overview",
                        "# Core Concepts",
                        "# Visualization",
                        "CURRENT_AGENT: done",
                        "- overview-writer: done",
                        "- concepts-writer: done",
                        "- visualization-writer: done");
        assertThat(FileWorkspace.at(wsDir).exists("visualization.mmd")).isTrue();

        List<AgentCheckpoint> saved = storage.getCheckpoints(Pipeline.storedRunId(RUN));
        assertThat(saved)
                .extracting(AgentCheckpoint::nodeId)
                .containsExactly(
                        Pipeline.START_NODE_ID,
                        "overview-writer",
                        "concepts-writer",
                        "visualization-writer",
                        AgentCheckpoint.TOMBSTONE_NODE_ID);
        assertThat(saved).extracting(AgentCheckpoint::version).containsExactly(0L, 1L, 2L, 3L, 4L);
        AgentCheckpoint afterConcepts = saved.get(2);
        assertThat(afterConcepts.metadata())
                .containsEntry("pipeline", DocumentPipeline.NAME)
                .containsEntry("pipeline.attempts", "1");
        assertThat(afterConcepts
                        .state()
                        .get("pipeline.state")
                        .path("files")
                        .path(Docs.FILE)
                        .path("text")
                        .asText())
                .contains("# Core Concepts")
                .doesNotContain("# Visualization");
        assertThat(afterConcepts.messageHistory()).hasSize(4);

        assertThat(events.names())
                .containsExactly(
                        "CheckpointLoaded",
                        "RunStarted",
                        "CheckpointSaved",
                        "NodeStarted",
                        "NodeSucceeded",
                        "CheckpointSaved",
                        "NodeStarted",
                        "NodeSucceeded",
                        "CheckpointSaved",
                        "NodeStarted",
                        "NodeSucceeded",
                        "CheckpointSaved",
                        "CheckpointSaved",
                        "RunFinished");
    }

    @Test
    void ruleBrokenOnFirstAttemptIsRolledBackAndFixedWithFeedback() {
        var model = new ScriptedModel(Map.of("concepts-writer", Mode.BREAKS_UNTIL_FEEDBACK));

        var result = pipeline(model).run(RUN, DocumentPipeline.newWorkspace(wsDir));

        assertThat(result.isCompleted()).as(result.toString()).isTrue();
        assertThat(model.calls("concepts-writer")).isEqualTo(2);
        assertThat(model.prompts("concepts-writer").get(1)).startsWith("""
                [RETRY ATTEMPT 1/3]
                ⚠️ ROLLBACK PERFORMED
                Your previous output failed postcondition validation and has been rolled back.
                Everything it changed has been restored to its state BEFORE your last execution.
                Validation errors from previous attempt:
                - 3-5 concept blocks expected, found 7
                """);
        // Nothing of the failed attempt survives in the document...
        assertThat(Conditions.countMarkdownHeadings(doc(), "## Concept")).isEqualTo(4);
        assertThat(doc()).doesNotContain("## Concept 7");
        assertThat(doc().split("- concepts-writer: done", -1)).hasSize(2);
        // ...nor in the conversation: only the passing attempt's messages, which carry the feedback.
        List<Message> conceptMessages = result.messageHistory().subList(2, 4);
        assertThat(conceptMessages.get(0).content()).startsWith("[RETRY ATTEMPT 1/3]");
        assertThat(result.messageHistory())
                .hasSize(6)
                .noneMatch(m -> m.role() == Message.Role.USER && m.content().startsWith("You are concepts-writer"));

        var validation = events.of(ValidationFailed.class);
        assertThat(validation).singleElement().satisfies(v -> {
            assertThat(v.phase()).isEqualTo(ConditionPhase.POSTCONDITION);
            assertThat(v.node()).isEqualTo("concepts-writer");
            assertThat(v.attempt()).isEqualTo(1);
            assertThat(v.violations())
                    .containsExactly(new Violation("concept blocks", "3-5 concept blocks expected, found 7"));
        });
        assertThat(events.of(NodeFailed.class)).singleElement().satisfies(f -> {
            assertThat(f.outcome()).isEqualTo(AttemptOutcome.VALIDATION_FAILED);
            assertThat(f.willRetry()).isTrue();
        });
        assertThat(events.of(RollbackPerformed.class))
                .singleElement()
                .satisfies(r -> assertThat(r.attempt()).isEqualTo(1));
        assertThat(events.of(RetryScheduled.class)).singleElement().satisfies(r -> {
            assertThat(r.nextAttempt()).isEqualTo(2);
            assertThat(r.feedback().retry()).isEqualTo(1);
            assertThat(r.feedback().maxRetries()).isEqualTo(3);
        });
        assertThat(events.of(NodeStarted.class))
                .extracting(NodeStarted::node, NodeStarted::attempt)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("overview-writer", 1),
                        org.assertj.core.groups.Tuple.tuple("concepts-writer", 1),
                        org.assertj.core.groups.Tuple.tuple("concepts-writer", 2),
                        org.assertj.core.groups.Tuple.tuple("visualization-writer", 1));
        assertThat(storage.getCheckpoints(
                        Pipeline.storedRunId(RUN),
                        CheckpointFilter.builder().nodeId("concepts-writer").build()))
                .singleElement()
                .satisfies(cp -> assertThat(cp.metadata()).containsEntry("pipeline.attempts", "2"));
    }

    @Test
    void withoutTheRollbackNoticeTheModelWouldAnswerAlreadyDone() {
        // The failure mode the feedback fixes: the model's session remembers the rolled-back work.
        var model = new ScriptedModel(Map.of("concepts-writer", Mode.BREAKS_UNTIL_FEEDBACK));
        model.complete("concepts-writer", "You are concepts-writer.");

        assertThat(model.complete("concepts-writer", "You are concepts-writer.").alreadyDone())
                .isTrue();
        assertThat(model.complete(
                                "concepts-writer",
                                new RetryFeedback("concepts-writer", 1, 3, List.of(new Violation("c", "m")), null, null)
                                        .toPrompt())
                        .alreadyDone())
                .isFalse();
    }

    @Test
    void ruleNeverFixedFailsTheRunAfterThreeRetriesWithTheViolations() {
        var model = new ScriptedModel(Map.of("concepts-writer", Mode.NEVER_FIXES));

        var result = pipeline(model).run(RUN, DocumentPipeline.newWorkspace(wsDir));

        assertThat(result.isFailed()).isTrue();
        PipelineFailure failure = result.failure().orElseThrow();
        assertThat(failure.reason()).isEqualTo(PipelineFailure.Reason.RETRIES_EXHAUSTED);
        assertThat(failure.node()).isEqualTo("concepts-writer");
        assertThat(failure.attempts()).isEqualTo(4);
        assertThat(failure.violations())
                .containsExactly(new Violation("concept blocks", "3-5 concept blocks expected, found 7"));
        assertThat(failure.describe())
                .isEqualTo("node 'concepts-writer' failed after 4 attempts: "
                        + "[concept blocks] 3-5 concept blocks expected, found 7");
        assertThat(model.calls("concepts-writer")).isEqualTo(4);
        assertThat(model.prompts("concepts-writer"))
                .extracting(p -> p.lines().findFirst().orElse(""))
                .containsExactly(
                        "You are concepts-writer. Write your section of doc.md.",
                        "[RETRY ATTEMPT 1/3]",
                        "[RETRY ATTEMPT 2/3]",
                        "[RETRY ATTEMPT 3/3]");
        assertThat(model.calls("visualization-writer")).isZero();
        // The document is as the overview-writer left it.
        assertThat(doc())
                .contains("# Overview", "CURRENT_AGENT: concepts-writer")
                .doesNotContain("# Core Concepts");
        assertThat(result.state().root()).isEqualTo(wsDir.toAbsolutePath().normalize());
        assertThat(result.messageHistory()).hasSize(2);
        assertThat(events.of(NodeFailed.class))
                .extracting(NodeFailed::willRetry)
                .containsExactly(true, true, true, false);
        assertThat(events.of(RetryScheduled.class)).hasSize(3);
        assertThat(events.of(RollbackPerformed.class)).hasSize(4);
        assertThat(storage.getLatestCheckpoint(Pipeline.storedRunId(RUN)))
                .get()
                .extracting(AgentCheckpoint::nodeId)
                .isEqualTo("overview-writer");
        var finished = events.of(PipelineEvent.RunFinished.class);
        assertThat(finished).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(PipelineResult.Status.FAILED);
            assertThat(f.failure()).isEqualTo(failure);
        });
    }

    @Test
    void failedRunResumesAtTheFailedNodeWithoutRerunningFinishedOnes() {
        var failing = new ScriptedModel(Map.of("concepts-writer", Mode.NEVER_FIXES));
        assertThat(pipeline(failing)
                        .run(RUN, DocumentPipeline.newWorkspace(wsDir))
                        .isFailed())
                .isTrue();

        var fixed = ScriptedModel.allCorrect();
        var result = pipeline(fixed).run(RUN, FileWorkspace.at(wsDir));

        assertThat(result.isCompleted()).as(result.toString()).isTrue();
        assertThat(result.resumedAfter()).contains("overview-writer");
        assertThat(result.executedNodes()).containsExactly("concepts-writer", "visualization-writer");
        assertThat(fixed.calls("overview-writer")).isZero();
        assertThat(doc().split("# Overview", -1)).hasSize(2);
        assertThat(result.messageHistory()).hasSize(6);
    }

    @Test
    void violatedPreconditionFailsAtOnceWithoutRunningTheAgent() {
        FileWorkspace ws = FileWorkspace.at(wsDir);
        ws.write(Docs.FILE, Docs.initial().replace("overview-writer", "someone-else"));
        var model = ScriptedModel.allCorrect();

        var result = pipeline(model).run(RUN, ws);

        assertThat(result.isFailed()).isTrue();
        PipelineFailure failure = result.failure().orElseThrow();
        assertThat(failure.reason()).isEqualTo(PipelineFailure.Reason.PRECONDITION_FAILED);
        assertThat(failure.node()).isEqualTo("overview-writer");
        assertThat(failure.attempts()).isZero();
        assertThat(failure.violations())
                .containsExactly(new Violation(
                        "CURRENT_AGENT", "`CURRENT_AGENT` expected `overview-writer`, found `someone-else`"));
        assertThat(model.calls("overview-writer")).isZero();
        assertThat(events.of(NodeStarted.class)).isEmpty();
        assertThat(events.of(RetryScheduled.class)).isEmpty();
        assertThat(events.of(ValidationFailed.class))
                .singleElement()
                .satisfies(v -> assertThat(v.phase()).isEqualTo(ConditionPhase.PRECONDITION));
        assertThat(storage.getCheckpoints(Pipeline.storedRunId(RUN)))
                .extracting(AgentCheckpoint::nodeId)
                .containsExactly(Pipeline.START_NODE_ID);
    }

    @Test
    void exceptionInTheActionRollsBackItsPartialEditsAndRetriesWithTheError() {
        var model = new ScriptedModel(Map.of("concepts-writer", Mode.FAILS_UNTIL_FEEDBACK));

        var result = pipeline(model).run(RUN, DocumentPipeline.newWorkspace(wsDir));

        assertThat(result.isCompleted()).as(result.toString()).isTrue();
        assertThat(model.prompts("concepts-writer").get(1)).startsWith("""
                [RETRY ATTEMPT 1/3]
                ⚠️ ROLLBACK PERFORMED
                Your previous execution failed with an error and has been rolled back.
                Everything it changed has been restored to its state BEFORE your last execution.
                Error from previous attempt:
                - IOException: model connection lost
                """);
        assertThat(doc()).doesNotContain("PARTIAL WORK").contains("# Core Concepts");
        assertThat(events.of(ValidationFailed.class)).isEmpty();
        assertThat(events.of(NodeFailed.class)).singleElement().satisfies(f -> {
            assertThat(f.outcome()).isEqualTo(AttemptOutcome.ERROR);
            assertThat(f.exception()).isInstanceOf(IOException.class).hasMessage("model connection lost");
        });
    }

    @Test
    void filesCreatedOrChangedByAFailedAttemptAreRolledBackOnDisk() {
        var model = new ScriptedModel(Map.of("visualization-writer", Mode.BREAKS_UNTIL_FEEDBACK));

        var result = pipeline(model).run(RUN, DocumentPipeline.newWorkspace(wsDir));

        assertThat(result.isCompleted()).as(result.toString()).isTrue();
        assertThat(model.prompts("visualization-writer").get(1))
                .contains("- visualization component `visualization.mmd` missing");
        assertThat(doc().split("# Visualization", -1)).hasSize(2);
        assertThat(FileWorkspace.at(wsDir).files()).containsExactly(Docs.FILE, "visualization.mmd");
    }

    @Test
    void checkpointSavedEventsReportSizeAndNode() {
        pipeline(ScriptedModel.allCorrect()).run(RUN, DocumentPipeline.newWorkspace(wsDir));

        assertThat(events.of(CheckpointSaved.class))
                .extracting(CheckpointSaved::node)
                .containsExactly(
                        Pipeline.START_NODE_ID,
                        "overview-writer",
                        "concepts-writer",
                        "visualization-writer",
                        AgentCheckpoint.TOMBSTONE_NODE_ID);
        assertThat(events.of(CheckpointSaved.class)).allSatisfy(saved -> {
            assertThat(saved.sizeBytes()).isPositive();
            assertThat(saved.saveAttempts()).isEqualTo(1);
        });
    }

    private static long backupDirectories() throws IOException {
        try (Stream<Path> entries = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return entries.filter(p -> p.getFileName().toString().startsWith("workspace-backup-"))
                    .count();
        }
    }
}
