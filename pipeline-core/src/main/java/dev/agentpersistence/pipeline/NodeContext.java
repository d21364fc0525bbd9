package dev.agentpersistence.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.Message;
import dev.agentpersistence.Tool;
import dev.agentpersistence.ToolCall;
import java.util.List;
import java.util.Optional;

/**
 * What a node's action sees during one attempt. Messages added and tool calls recorded here belong to this attempt:
 * they are kept when the attempt passes its postconditions and dropped (tool calls undone through their inverse tools)
 * when it fails.
 *
 * @param <S> the pipeline state type
 */
public interface NodeContext<S> {

    /** The pipeline's name. */
    String pipelineName();

    /** The run this attempt belongs to. */
    String runId();

    /** The node being run. */
    String nodeName();

    /** The state as the node receives it; after a failed attempt, the restored state. */
    S state();

    /** This attempt's number, 1 for the first. */
    int attempt();

    /** The attempts this node gets at most (retries + 1). */
    int maxAttempts();

    /** Why the previous attempt was rolled back; empty on the first attempt. */
    Optional<RetryFeedback> retryFeedback();

    /** The conversation: the messages of finished nodes followed by those this attempt added. */
    List<Message> messageHistory();

    /** Appends a message to this attempt's part of the conversation. */
    void addMessage(Message message);

    /**
     * Journals a tool call the action runs itself: call it <em>before</em> running the tool. The intent is saved in the
     * run's write-ahead journal (with a fresh random idempotency key), so a failed attempt, or one a crash cut off, is
     * undone through the pipeline's {@link dev.agentpersistence.RollbackToolRegistry}. No result is journaled for such
     * a call. Does not add a message; see {@link #callTool}.
     *
     * @throws RuntimeException when the intent cannot be saved; then do not run the tool
     */
    void recordToolCall(ToolCall call);

    /**
     * Runs a tool through the write-ahead journal: saves the intent (tool, arguments, idempotency key) before the tool
     * runs, runs it (a {@link dev.agentpersistence.KeyedTool} receives the key), saves its result or failure, appends
     * {@link Message#toolCall} and {@link Message#toolResult} messages, and returns the result. The call id is
     * {@code <node>#<attempt>.<n>}. The key is fresh and random, except for a
     * {@link dev.agentpersistence.KeyedTool#idempotent() idempotent} tool, whose n-th call in an attempt gets
     * {@code <runId>/<node>/<tool>#<n>} on every attempt.
     *
     * @throws Exception what the tool threw, or the storage exception when the intent could not be saved (the tool then
     *     did not run)
     */
    JsonNode callTool(Tool tool, JsonNode arguments) throws Exception;

    /** The tool calls journaled in this attempt, in the order they were made. */
    List<ToolCall> toolCalls();

    /**
     * Asks a person for input and returns the answer once there is one. The first time, there is none: the call ends
     * the attempt (do not catch what it throws), the attempt is rolled back like a failed one (state restored, tool
     * calls undone; it does not count as a retry), and the run ends {@link PipelineResult.Status#WAITING} with a
     * checkpoint holding the question. When {@link Pipeline#resume} gives an answer matching {@code schema}, possibly
     * in another process, the node runs again from its start and this call returns the answer. So ask before doing work
     * that should not be repeated. The n-th question of a node is {@code <node>#<n>}; answers to the questions of a
     * node are kept until the node passes.
     *
     * @param question what to ask
     * @param schema what the answer must look like; an answer it refuses is not accepted by {@code resume}, and an
     *     answer that no longer matches asks again
     * @return the answer
     */
    JsonNode awaitInput(String question, AnswerSchema schema);
}
