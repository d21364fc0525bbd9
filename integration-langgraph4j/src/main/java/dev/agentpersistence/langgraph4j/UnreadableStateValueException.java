package dev.agentpersistence.langgraph4j;

import dev.agentpersistence.PersistenceException;

/**
 * A state value that was stored through a graph's state serializer cannot be read back by this saver: it has no state
 * serializer ({@link AgentPersistenceSaver.Builder#jsonOnly()}), or its serializer is not the one that wrote the value
 * or does not know the value's classes. Nothing is wrong with the store and a retry does not help: give the saver the
 * graph's own serializer ({@link AgentPersistenceSaver.Builder#stateSerializer}).
 */
public class UnreadableStateValueException extends PersistenceException {
    private final String agentId;
    private final String checkpointId;
    private final String key;

    UnreadableStateValueException(String agentId, String checkpointId, String key, String problem, Throwable cause) {
        super(
                "State value '" + key + "' of checkpoint '" + checkpointId + "' (agent '" + agentId + "') cannot be"
                        + " read: " + problem,
                cause);
        this.agentId = agentId;
        this.checkpointId = checkpointId;
        this.key = key;
    }

    /** The agent id of the thread. */
    public String agentId() {
        return agentId;
    }

    /** The stored checkpoint id. */
    public String checkpointId() {
        return checkpointId;
    }

    /** The state key. */
    public String key() {
        return key;
    }
}
