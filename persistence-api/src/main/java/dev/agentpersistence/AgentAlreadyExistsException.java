package dev.agentpersistence;

/** {@link AgentPersistence#fork} was asked to create an agent that already has checkpoints. */
public class AgentAlreadyExistsException extends PersistenceException {
    private final String agentId;

    public AgentAlreadyExistsException(String agentId, String why) {
        super("Agent '" + agentId + "' already has checkpoints: " + why);
        this.agentId = agentId;
    }

    /** The agent that exists. */
    public String agentId() {
        return agentId;
    }
}
