package dev.agentpersistence.memory;

import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.PersistenceException;

/**
 * A change to a conversation lost the race against other writers on every attempt (each time it reloaded the
 * conversation and applied the change again, another writer had saved first), or it was a replace based on a
 * conversation another writer has since rolled back or rewritten, so applying it would drop that writer's messages.
 * Nothing of this change was written; the messages of the other writers are stored.
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

    private ConversationConflictException(String conversationId, String message) {
        super(message);
        this.conversationId = conversationId;
        this.attempts = 1;
    }

    /**
     * A replace based on version {@code baseVersion} of the conversation, which is now at {@code currentVersion} with a
     * history that no longer extends the base.
     */
    static ConversationConflictException staleBase(String conversationId, long baseVersion, long currentVersion) {
        return new ConversationConflictException(
                conversationId,
                "Could not save conversation '" + conversationId + "': the list was built from version " + baseVersion
                        + ", but another writer has rolled the conversation back or rewritten it since (now version "
                        + currentVersion + "); applying it would drop that writer's messages, so nothing was written."
                        + " Read the conversation again and build the list from it");
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
