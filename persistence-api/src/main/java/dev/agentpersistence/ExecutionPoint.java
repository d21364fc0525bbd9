package dev.agentpersistence;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.internal.Maps;
import java.util.List;
import java.util.Map;

/**
 * Where an agent resumes: the node to run next, the conversation so far, that node's input and the agent's key/value
 * state. Handed to {@link AgentContext#restore(ExecutionPoint)}.
 *
 * @param nodeId the node to resume at, or {@code null} to start from the beginning
 * @param messageHistory the conversation to continue from
 * @param input the node's input, or {@code null}
 * @param state the agent's key/value storage
 */
public record ExecutionPoint(String nodeId, List<Message> messageHistory, JsonNode input, Map<String, JsonNode> state) {
    public ExecutionPoint {
        messageHistory = messageHistory == null ? List.of() : List.copyOf(messageHistory);
        state = Maps.sortedJsonMap(state, "state");
    }

    /** The point a checkpoint describes. */
    public static ExecutionPoint of(AgentCheckpoint checkpoint) {
        return new ExecutionPoint(
                checkpoint.nodeId(), checkpoint.messageHistory(), checkpoint.lastInput(), checkpoint.state());
    }
}
