package dev.agentpersistence.examples.embedding;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentContext;
import dev.agentpersistence.ExecutionPoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.ToolCall;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The adapter that embeds agent-persistence in {@link ShoppingAgentLoop}: converts the loop's turns to {@link Message}s
 * (tool calls as {@link Message.Role#TOOL_CALL} messages, so a rollback finds the calls made after a checkpoint) and
 * its memory to the checkpoint state, and converts them back in {@link #restore}. The conversion is exact both ways.
 */
public final class ShoppingAgentContext implements AgentContext {
    private final ShoppingAgentLoop loop;

    public ShoppingAgentContext(ShoppingAgentLoop loop) {
        this.loop = Objects.requireNonNull(loop, "loop");
    }

    @Override
    public String agentId() {
        return loop.id();
    }

    @Override
    public List<Message> messageHistory() {
        var messages = new ArrayList<Message>();
        for (ShoppingAgentLoop.Turn turn : loop.turns()) {
            messages.add(toMessage(turn));
        }
        return messages;
    }

    @Override
    public Map<String, JsonNode> state() {
        var state = new LinkedHashMap<String, JsonNode>();
        loop.memory().forEach((key, value) -> state.put(key, TextNode.valueOf(value)));
        return state;
    }

    @Override
    public String currentNodeId() {
        return loop.step();
    }

    @Override
    public void restore(ExecutionPoint point) {
        var turns = new ArrayList<ShoppingAgentLoop.Turn>();
        point.messageHistory().forEach(message -> turns.add(toTurn(message)));
        var memory = new LinkedHashMap<String, String>();
        point.state().forEach((key, value) -> memory.put(key, value.asText()));
        loop.reset(turns, memory, point.nodeId());
    }

    static Message toMessage(ShoppingAgentLoop.Turn turn) {
        if (turn instanceof ShoppingAgentLoop.Turn.UserSays t) {
            return Message.user(t.text());
        } else if (turn instanceof ShoppingAgentLoop.Turn.AgentSays t) {
            return Message.assistant(t.text());
        } else if (turn instanceof ShoppingAgentLoop.Turn.ToolInvoked t) {
            return Message.toolCall(new ToolCall(t.callId(), t.tool(), t.arguments()));
        } else if (turn instanceof ShoppingAgentLoop.Turn.ToolReturned t) {
            return Message.toolResult(t.callId(), t.tool(), t.result());
        }
        throw new IllegalArgumentException("unknown turn " + turn);
    }

    static ShoppingAgentLoop.Turn toTurn(Message message) {
        return switch (message.role()) {
            case USER -> new ShoppingAgentLoop.Turn.UserSays(message.content());
            case ASSISTANT -> new ShoppingAgentLoop.Turn.AgentSays(message.content());
            case TOOL_CALL ->
                new ShoppingAgentLoop.Turn.ToolInvoked(
                        message.toolCall().id(),
                        message.toolCall().toolName(),
                        message.toolCall().arguments());
            case TOOL_RESULT ->
                new ShoppingAgentLoop.Turn.ToolReturned(
                        message.metadata().get(Message.TOOL_CALL_ID),
                        message.metadata().get(Message.TOOL_NAME),
                        message.content());
            case SYSTEM -> throw new IllegalArgumentException("the shopping loop has no system turns");
        };
    }
}
