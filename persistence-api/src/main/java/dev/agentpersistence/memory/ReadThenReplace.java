package dev.agentpersistence.memory;

import dev.agentpersistence.Message;
import dev.agentpersistence.internal.LruMaps;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The base of a framework's replace-all, remembered per conversation and shared by every thread: for chat memory stores
 * whose framework reads the list, changes it and hands the whole list back (LangChain4j's and Spring AI's window
 * memories do), from the same thread or another one.
 *
 * <p>{@link #read} loads the conversation and remembers it as served; {@link #replace} remembers what it saved. A
 * replace applies the list as a change to the conversation it was built from ({@link ConversationStore#replace(
 * Conversation, List)}): the newest conversation served that the list {@linkplain #builtFrom could have been built
 * from}, so a list built from a read that another thread's write has since superseded is merged with that write (both
 * keep their messages) instead of evicting it, and a list built from a conversation since rolled back is refused with
 * {@link ConversationConflictException}. When no served conversation fits (or none is remembered) the newest one served
 * is the base, and without any the conversation as stored now.
 *
 * <p>Bounded, like {@link WriterHeads}: the last {@value #SERVED_PER_CONVERSATION} conversations served of each of at
 * most {@value #REMEMBERED_CONVERSATIONS} conversations (least recently used forgotten first). Thread-safe.
 */
public final class ReadThenReplace {
    /** How many conversations' served versions are remembered. */
    public static final int REMEMBERED_CONVERSATIONS = 1024;

    /** How many served versions of one conversation are remembered. */
    public static final int SERVED_PER_CONVERSATION = 16;

    private final ConversationStore store;
    private final Map<String, Deque<Conversation>> served = LruMaps.bounded(REMEMBERED_CONVERSATIONS);

    private ReadThenReplace(ConversationStore store) {
        this.store = store;
    }

    /** Read tracking over {@code store}. */
    public static ReadThenReplace over(ConversationStore store) {
        return new ReadThenReplace(Objects.requireNonNull(store, "store"));
    }

    /** The conversation's window, remembered as served for the next {@link #replace}, from any thread. */
    public List<Message> read(String conversationId) {
        var conversation = store.load(conversationId);
        remember(conversation);
        return conversation.messages();
    }

    /**
     * Makes {@code messages} the conversation's window, as a change to the conversation it was built from (see the
     * class documentation).
     *
     * @throws ConversationConflictException when other writers won every attempt, or the base has since been rolled
     *     back or rewritten
     */
    public Conversation replace(String conversationId, List<Message> messages) {
        Objects.requireNonNull(conversationId, "conversationId");
        var list = List.copyOf(Objects.requireNonNull(messages, "messages"));
        var base = baseOf(conversationId, list);
        var saved = base.isEmpty() ? store.replace(conversationId, list) : store.replace(base.get(), list);
        remember(saved);
        return saved;
    }

    /**
     * Whether {@code messages} could have been built from {@code base} by a window memory: the base window's messages
     * it drops (system messages aside) all come before the first non-system message it keeps, as when a window evicts
     * its oldest messages and appends new ones. A list that drops a message after one it keeps was built from another
     * version.
     */
    public static boolean builtFrom(Conversation base, List<Message> messages) {
        return ConversationEdit.dropsOnlyTheHead(
                Objects.requireNonNull(base, "base").messages(), Objects.requireNonNull(messages, "messages"));
    }

    /** Forgets what was served of the conversation (after deleting it, for instance). */
    public synchronized void forget(String conversationId) {
        served.remove(Objects.requireNonNull(conversationId, "conversationId"));
    }

    /** The store underneath. */
    public ConversationStore store() {
        return store;
    }

    private synchronized Optional<Conversation> baseOf(String conversationId, List<Message> messages) {
        var versions = served.get(conversationId);
        if (versions == null || versions.isEmpty()) {
            return Optional.empty();
        }
        for (Conversation candidate : versions) { // newest first
            if (builtFrom(candidate, messages)) {
                return Optional.of(candidate);
            }
        }
        return Optional.of(versions.peekFirst());
    }

    private synchronized void remember(Conversation conversation) {
        var versions = served.computeIfAbsent(conversation.conversationId(), id -> new ArrayDeque<>());
        var newest = versions.peekFirst();
        if (newest != null && checkpointId(newest).equals(checkpointId(conversation))) {
            return;
        }
        versions.addFirst(conversation);
        while (versions.size() > SERVED_PER_CONVERSATION) {
            versions.removeLast();
        }
    }

    private static Optional<String> checkpointId(Conversation conversation) {
        return conversation.checkpoint().map(dev.agentpersistence.AgentCheckpoint::checkpointId);
    }
}
