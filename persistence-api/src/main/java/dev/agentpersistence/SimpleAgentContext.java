package dev.agentpersistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A ready {@link AgentContext} for code that runs agents without a framework: a mutable holder of the conversation, the
 * key/value state, the current node and the last restored input. Thread-safe; readers get immutable snapshots.
 */
public final class SimpleAgentContext implements AgentContext {
    private final String agentId;
    private final List<Message> history = new ArrayList<>();
    private final Map<String, JsonNode> state = new TreeMap<>();
    private String currentNodeId;
    private JsonNode input;

    /** An empty context for {@code agentId}. */
    public SimpleAgentContext(String agentId) {
        this.agentId = Identifiers.requireValid(agentId, "agentId");
    }

    @Override
    public String agentId() {
        return agentId;
    }

    @Override
    public synchronized List<Message> messageHistory() {
        return List.copyOf(history);
    }

    @Override
    public synchronized Map<String, JsonNode> state() {
        return Collections.unmodifiableMap(new TreeMap<>(state));
    }

    @Override
    public synchronized String currentNodeId() {
        return currentNodeId;
    }

    /** The input of the last {@link ExecutionPoint} restored, or {@code null}. */
    public synchronized JsonNode input() {
        return input;
    }

    /** Appends a message to the history. */
    public synchronized SimpleAgentContext append(Message message) {
        history.add(Objects.requireNonNull(message, "message"));
        return this;
    }

    /** Appends a {@link Message.Role#TOOL_CALL} message for {@code call}. */
    public SimpleAgentContext recordToolCall(ToolCall call) {
        return append(Message.toolCall(call));
    }

    /** Appends a {@link Message.Role#TOOL_CALL} message with a fresh call id and returns the call. */
    public ToolCall recordToolCall(String toolName, JsonNode arguments) {
        var call = new ToolCall(UUID.randomUUID().toString(), toolName, arguments);
        recordToolCall(call);
        return call;
    }

    /**
     * Records a call of {@code tool}, runs it and records its result as a {@link Message.Role#TOOL_RESULT} message;
     * returns the result. A tool that throws leaves the call recorded (it may have had side effects) and no result.
     */
    public JsonNode callTool(Tool tool, JsonNode arguments) throws Exception {
        Objects.requireNonNull(tool, "tool");
        var call = recordToolCall(tool.name(), arguments);
        JsonNode result = tool.execute(call.arguments());
        JsonNode stored = result == null ? NullNode.getInstance() : result;
        append(Message.toolResult(call.id(), tool.name(), stored.isTextual() ? stored.textValue() : stored.toString()));
        return result;
    }

    /** Puts one state entry; {@code null} stores JSON {@code null}. */
    public synchronized SimpleAgentContext putState(String key, JsonNode value) {
        state.put(Objects.requireNonNull(key, "key"), value == null ? NullNode.getInstance() : value);
        return this;
    }

    /** Removes one state entry. */
    public synchronized SimpleAgentContext removeState(String key) {
        state.remove(Objects.requireNonNull(key, "key"));
        return this;
    }

    /** Sets the node currently running ({@code null}: none). */
    public synchronized SimpleAgentContext currentNodeId(String nodeId) {
        this.currentNodeId = nodeId;
        return this;
    }

    @Override
    public synchronized void restore(ExecutionPoint point) {
        Objects.requireNonNull(point, "point");
        history.clear();
        history.addAll(point.messageHistory());
        state.clear();
        state.putAll(point.state());
        currentNodeId = point.nodeId();
        input = point.input();
    }

    @Override
    public synchronized String toString() {
        return "SimpleAgentContext[agentId=" + agentId + ", node=" + currentNodeId + ", messages=" + history.size()
                + ", state=" + state.keySet() + "]";
    }
}
