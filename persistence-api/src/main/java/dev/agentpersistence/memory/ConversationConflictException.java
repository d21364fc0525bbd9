package dev.agentpersistence.memory;

import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.PersistenceException;

/**
 * A change to a conversation lost the race against other writers on every attempt: each time it reloaded the
 * conversation and applied the change again, another writer had saved first. Nothing of this change was written; the
 * messages of the other writers are stored.
 */
public class ConversationConflictException extends PersistenceException {
    private final String conversationId;
    private final int attempts;

    public ConversationConflictException(
            String conversationId, int attempts, CheckpointConflictException lastConflict) {
        super(
                "Could not save conversation '" + conversationId + "': other writers saved first on all " + attempts
                        + " attempts (reload and re-apply each time); nothing of this change was written",
                lastConflict);
        this.conversationId = conversationId;
        this.attempts = attempts;
    }

    /** The conversation whose change was not saved. */
    public String conversationId() {
        return conversationId;
    }

    /** How many times the change was tried. */
    public int attempts() {
        return attempts;
    }
}
