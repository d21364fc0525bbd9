package dev.agentpersistence.springai;

import dev.agentpersistence.PersistenceException;

/**
 * A Spring AI message that cannot be stored as it is, or a stored message that cannot be read back as a Spring AI
 * message; names the conversation and the message's position. On save, nothing was written.
 */
public class ChatMemoryMappingException extends PersistenceException {
    private final String conversationId;
    private final int position;

    public ChatMemoryMappingException(String conversationId, int position, String problem, Throwable cause) {
        super("Message " + position + " of conversation '" + conversationId + "': " + problem, cause);
        this.conversationId = conversationId;
        this.position = position;
    }

    /** The conversation the message belongs to. */
    public String conversationId() {
        return conversationId;
    }

    /** The message's 0-based position in the list given to, or read by, the repository. */
    public int position() {
        return position;
    }
}
