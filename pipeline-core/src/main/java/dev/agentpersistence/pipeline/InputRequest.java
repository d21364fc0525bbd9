package dev.agentpersistence.pipeline;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A question a node asked with {@link NodeContext#awaitInput}: the run it stopped ends
 * {@link PipelineResult.Status#WAITING} until {@link Pipeline#resume} gives an answer.
 *
 * @param runId the waiting run
 * @param node the node that asked
 * @param requestId which question of the node ({@code <node>#<n>}, its n-th question)
 * @param question the question, for a person
 * @param schema what the answer must look like
 * @param since when the run started waiting
 * @param problems why the previous answer to this question was refused; empty at first
 */
public record InputRequest(
        String runId,
        String node,
        String requestId,
        String question,
        AnswerSchema schema,
        Instant since,
        List<String> problems) {

    public InputRequest {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(question, "question");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(since, "since");
        problems = List.copyOf(problems);
    }
}
