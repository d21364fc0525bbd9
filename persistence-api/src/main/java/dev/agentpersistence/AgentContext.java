package dev.agentpersistence;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * What an agent framework implements so {@link AgentPersistence} can checkpoint and restore its agents: read the
 * agent's current state, and put the agent back at an {@link ExecutionPoint}.
 */
public interface AgentContext {

    /** The id checkpoints are stored under. */
    String agentId();

    /** The conversation so far, oldest first. */
    List<Message> messageHistory();

    /** The agent's key/value storage. */
    Map<String, JsonNode> state();

    /** The node currently running, or {@code null}. */
    String currentNodeId();

    /** Replaces the agent's history, state and position with {@code point}. */
    void restore(ExecutionPoint point);
}
