package dev.agentpersistence.memory;

import dev.agentpersistence.Message;
import dev.agentpersistence.internal.LruMaps;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The base of a framework's replace-all, remembered per thread: for chat memory stores whose framework reads the list,
 * changes it and hands the whole list back in the same thread (LangChain4j's and Spring AI's window memories do).
 *
 * <p>{@link #read} loads the conversation and remembers it for the calling thread; {@link #replace} applies the list as
 * a change to what this thread read last ({@link ConversationStore#replace(Conversation, List)}), so two threads that
 * read the same window and each add a message both keep their message. Without an earlier read in the thread, the
 * conversation as stored now is the base. Each thread remembers its last reads of at most
 * {@value #REMEMBERED_PER_THREAD} conversations. Thread-safe.
 */
public final class ReadThenReplace {
    /** How many conversations' last reads a thread remembers. */
    public static final int REMEMBERED_PER_THREAD = 8;

    private final ConversationStore store;
    private final ThreadLocal<Map<String, Conversation>> lastReads =
            ThreadLocal.withInitial(() -> LruMaps.bounded(REMEMBERED_PER_THREAD));

    private ReadThenReplace(ConversationStore store) {
        this.store = store;
    }

    /** Read tracking over {@code store}. */
    public static ReadThenReplace over(ConversationStore store) {
        return new ReadThenReplace(Objects.requireNonNull(store, "store"));
    }

    /** The conversation's window, remembered as this thread's base for the next {@link #replace}. */
    public List<Message> read(String conversationId) {
        var conversation = store.load(conversationId);
        lastReads.get().put(conversationId, conversation);
        return conversation.messages();
    }

    /**
     * Makes {@code messages} the conversation's window, as a change to what this thread last read of it.
     *
     * @throws ConversationConflictException when other writers won every attempt
     */
    public Conversation replace(String conversationId, List<Message> messages) {
        Objects.requireNonNull(conversationId, "conversationId");
        Objects.requireNonNull(messages, "messages");
        var base = lastReads.get().remove(conversationId);
        var saved = base == null ? store.replace(conversationId, messages) : store.replace(base, messages);
        lastReads.get().put(conversationId, saved);
        return saved;
    }

    /** Forgets this thread's last read of the conversation (after deleting it, for instance). */
    public void forget(String conversationId) {
        lastReads.get().remove(conversationId);
    }

    /** The store underneath. */
    public ConversationStore store() {
        return store;
    }
}
