package dev.agentpersistence.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.Message;
import dev.agentpersistence.Tool;
import dev.agentpersistence.ToolCall;
import java.util.List;
import java.util.Optional;

/**
 * What a node's action sees during one attempt. Messages added and tool calls recorded here
 * belong to this attempt: they are kept when the attempt passes its postconditions and dropped
 * (tool calls undone through their inverse tools) when it fails.
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
     * Journals a tool call this attempt made (call it before or right after running the tool), so
     * a failed attempt can be undone through the pipeline's {@link dev.agentpersistence.RollbackToolRegistry}.
     * Does not add a message; see {@link #callTool}.
     */
    void recordToolCall(ToolCall call);

    /**
     * Runs a tool and journals the call: records it (before running, so a half-done call is
     * undone too), appends {@link Message#toolCall} and {@link Message#toolResult} messages, and
     * returns the tool's result. The call id is {@code <node>#<attempt>.<n>}.
     */
    JsonNode callTool(Tool tool, JsonNode arguments) throws Exception;

    /** The tool calls journaled in this attempt, in the order they were made. */
    List<ToolCall> toolCalls();
}
