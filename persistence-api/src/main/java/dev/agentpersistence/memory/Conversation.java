package dev.agentpersistence.memory;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.memory.internal.ConversationWindow;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One conversation as stored at one moment: its whole history and the window of it that a framework hands to its model.
 * Read with {@link ConversationStore#load}; pass it back to {@link ConversationStore#replace(Conversation, List)} as
 * the base of a change. Immutable.
 *
 * <p>The history only grows: messages evicted from the window stay in it, as does every tool call. The window is a
 * selection of the history in history order, usually its tail, often with the system message in front.
 */
public final class Conversation {
    private final String conversationId;
    private final AgentCheckpoint checkpoint;
    private final List<Message> history;
    private final ConversationWindow window;
    private final List<Message> messages;

    Conversation(String conversationId, AgentCheckpoint checkpoint, List<Message> history, ConversationWindow window) {
        this.conversationId = conversationId;
        this.checkpoint = checkpoint;
        this.history = List.copyOf(history);
        this.window = window;
        this.messages = window.select(this.history);
    }

    /** A conversation with nothing stored yet. */
    static Conversation empty(String conversationId) {
        return new Conversation(conversationId, null, List.of(), ConversationWindow.empty());
    }

    /** The conversation's id, as given to the store. */
    public String conversationId() {
        return conversationId;
    }

    /** The window: the messages a framework hands to its model, in order. */
    public List<Message> messages() {
        return messages;
    }

    /** Every message ever stored in the conversation, evicted ones included, in order. */
    public List<Message> history() {
        return history;
    }

    /** The checkpoint this conversation was read from; empty when nothing is stored. */
    public Optional<AgentCheckpoint> checkpoint() {
        return Optional.ofNullable(checkpoint);
    }

    /** The version of that checkpoint, or -1 when nothing is stored. */
    public long version() {
        return checkpoint == null ? -1 : checkpoint.version();
    }

    /** Whether the window holds no message. */
    public boolean isEmpty() {
        return messages.isEmpty();
    }

    ConversationWindow window() {
        return window;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Conversation c
                && conversationId.equals(c.conversationId)
                && Objects.equals(checkpoint, c.checkpoint)
                && history.equals(c.history)
                && window.equals(c.window);
    }

    @Override
    public int hashCode() {
        return Objects.hash(conversationId, checkpoint, history, window);
    }

    @Override
    public String toString() {
        return "Conversation[" + conversationId + ", version " + version() + ", " + messages.size() + " of "
                + history.size() + " messages in the window]";
    }
}
