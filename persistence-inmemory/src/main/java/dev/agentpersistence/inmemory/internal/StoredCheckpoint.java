package dev.agentpersistence.inmemory.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.internal.Isolation;
import java.util.Map;
import java.util.TreeMap;

/**
 * A checkpoint as the in-memory provider keeps it: a private deep copy that no caller holds.
 *
 * <p>Only JSON container nodes (objects and arrays) are mutable in a checkpoint; records, strings,
 * lists, maps and JSON value nodes are not. So a copy replaces just the container nodes, and a
 * checkpoint without any is handed out as is.
 *
 * @param checkpoint         the private copy; never handed to callers when {@code hasContainerNodes}
 * @param hasContainerNodes  whether {@link #read()} must copy
 */
public record StoredCheckpoint(AgentCheckpoint checkpoint, boolean hasContainerNodes) {

    /** A private copy of {@code checkpoint}. */
    public static StoredCheckpoint of(AgentCheckpoint checkpoint) {
        boolean containers = hasContainerNodes(checkpoint);
        return new StoredCheckpoint(containers ? deepCopy(checkpoint) : checkpoint, containers);
    }

    /** A checkpoint equal to the stored one that the caller may change without affecting the store. */
    public AgentCheckpoint read() {
        return hasContainerNodes ? deepCopy(checkpoint) : checkpoint;
    }

    public String checkpointId() {
        return checkpoint.checkpointId();
    }

    private static boolean hasContainerNodes(AgentCheckpoint checkpoint) {
        if (Isolation.isContainer(checkpoint.lastInput())) {
            return true;
        }
        for (JsonNode value : checkpoint.state().values()) {
            if (Isolation.isContainer(value)) {
                return true;
            }
        }
        for (Message message : checkpoint.messageHistory()) {
            if (Isolation.hasContainer(message)) {
                return true;
            }
        }
        return false;
    }

    private static AgentCheckpoint deepCopy(AgentCheckpoint checkpoint) {
        var state = new TreeMap<String, JsonNode>();
        for (Map.Entry<String, JsonNode> entry : checkpoint.state().entrySet()) {
            state.put(entry.getKey(), Isolation.copy(entry.getValue()));
        }
        return checkpoint.toBuilder()
                .lastInput(Isolation.copy(checkpoint.lastInput()))
                .state(state)
                .messageHistory(Isolation.copy(checkpoint.messageHistory()))
                .build();
    }
}
