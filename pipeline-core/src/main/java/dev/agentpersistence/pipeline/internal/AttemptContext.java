package dev.agentpersistence.pipeline.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.agentpersistence.Message;
import dev.agentpersistence.Tool;
import dev.agentpersistence.ToolCall;
import dev.agentpersistence.pipeline.NodeContext;
import dev.agentpersistence.pipeline.RetryFeedback;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The {@link NodeContext} of one attempt: collects the attempt's messages and tool calls. Thread-safe. */
public final class AttemptContext<S> implements NodeContext<S> {
    private final String pipelineName;
    private final String runId;
    private final String nodeName;
    private final S state;
    private final int attempt;
    private final int maxAttempts;
    private final RetryFeedback feedback;
    private final List<Message> history;
    private final List<Message> added = new ArrayList<>();
    private final List<ToolCall> toolCalls = new ArrayList<>();
    private int callSequence;

    public AttemptContext(String pipelineName, String runId, String nodeName, S state, int attempt, int maxAttempts,
                          RetryFeedback feedback, List<Message> history) {
        this.pipelineName = pipelineName;
        this.runId = runId;
        this.nodeName = nodeName;
        this.state = state;
        this.attempt = attempt;
        this.maxAttempts = maxAttempts;
        this.feedback = feedback;
        this.history = List.copyOf(history);
    }

    @Override
    public String pipelineName() {
        return pipelineName;
    }

    @Override
    public String runId() {
        return runId;
    }

    @Override
    public String nodeName() {
        return nodeName;
    }

    @Override
    public S state() {
        return state;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    @Override
    public int maxAttempts() {
        return maxAttempts;
    }

    @Override
    public Optional<RetryFeedback> retryFeedback() {
        return Optional.ofNullable(feedback);
    }

    @Override
    public synchronized List<Message> messageHistory() {
        var all = new ArrayList<Message>(history.size() + added.size());
        all.addAll(history);
        all.addAll(added);
        return List.copyOf(all);
    }

    @Override
    public synchronized void addMessage(Message message) {
        added.add(Objects.requireNonNull(message, "message"));
    }

    @Override
    public synchronized void recordToolCall(ToolCall call) {
        toolCalls.add(Objects.requireNonNull(call, "call"));
    }

    @Override
    public JsonNode callTool(Tool tool, JsonNode arguments) throws Exception {
        Objects.requireNonNull(tool, "tool");
        ToolCall call;
        synchronized (this) {
            call = new ToolCall(nodeName + "#" + attempt + "." + (++callSequence), tool.name(), arguments);
            toolCalls.add(call);
            added.add(Message.toolCall(call));
        }
        JsonNode result = tool.execute(call.arguments());
        JsonNode shown = result == null ? NullNode.getInstance() : result;
        addMessage(Message.toolResult(call.id(), tool.name(), shown.isTextual() ? shown.textValue() : shown.toString()));
        return result;
    }

    @Override
    public synchronized List<ToolCall> toolCalls() {
        return List.copyOf(toolCalls);
    }

    /** The messages this attempt added. */
    public synchronized List<Message> addedMessages() {
        return List.copyOf(added);
    }

    @Override
    public String toString() {
        return "NodeContext[" + pipelineName + "/" + runId + " node=" + nodeName + " attempt=" + attempt + "/"
                + maxAttempts + "]";
    }
}
