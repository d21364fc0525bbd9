package dev.agentpersistence.cli;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.pipeline.Conditions;
import dev.agentpersistence.pipeline.Node;
import dev.agentpersistence.pipeline.Pipeline;
import dev.agentpersistence.pipeline.PipelineResult;
import dev.agentpersistence.pipeline.RetryPolicy;
import dev.agentpersistence.pipeline.StateCodec;

/**
 * A real pipeline-core run whose second node fails its postcondition once, is rolled back and retried with feedback.
 */
final class PipelineRuns {
    /** The pipeline's state. */
    public record Draft(String outline, String text) {}

    /** The violation of the failed attempt, with characters that are markup in HTML. */
    static final String VIOLATION = "the text does not end with <b>done</b> & is 'open'";

    private PipelineRuns() {}

    static PipelineResult<Draft> run(PersistenceStorageProvider<CheckpointFilter> storage, String runId) {
        Node<Draft> outline = Node.<Draft>builder("outline")
                .action(context -> {
                    context.addMessage(Message.user("Outline a release note"));
                    return new Draft("1. changes", "");
                })
                .postcondition(
                        Conditions.of("has outline", draft -> !draft.outline().isEmpty(), draft -> "no outline"))
                .build();
        Node<Draft> write = Node.<Draft>builder("write")
                .action(context -> {
                    context.retryFeedback()
                            .ifPresent(feedback -> context.addMessage(Message.user(feedback.toPrompt())));
                    String text = context.attempt() == 1 ? "draft" : "draft, done";
                    context.addMessage(Message.assistant(text));
                    return new Draft(context.state().outline(), text);
                })
                .postcondition(Conditions.of("finished", draft -> draft.text().endsWith("done"), draft -> VIOLATION))
                .build();
        return Pipeline.builder("release-note", StateCodec.jackson(Draft.class))
                .node(outline)
                .node(write)
                .retryPolicy(RetryPolicy.custom().maxRetries(2).build())
                .storage(storage)
                .build()
                .run(runId, new Draft("", ""));
    }
}
