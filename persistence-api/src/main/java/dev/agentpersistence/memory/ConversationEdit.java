package dev.agentpersistence.memory;

import dev.agentpersistence.Message;
import dev.agentpersistence.memory.internal.ConversationWindow;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;

/**
 * What one save does to a conversation: the messages appended to its history and the window after them (positions in
 * the grown history).
 */
record ConversationEdit(List<Message> appended, ConversationWindow window) {

    ConversationEdit {
        appended = List.copyOf(appended);
    }

    /** Appends {@code messages} to the history and to the end of the window. */
    static ConversationEdit append(Conversation current, List<Message> messages) {
        int size = current.history().size();
        return new ConversationEdit(
                messages, current.window().plus(ConversationWindow.range(size, size + messages.size())));
    }

    /**
     * The framework read {@code base}, and hands back {@code messages} as the whole new window; apply that change to
     * {@code current}, which may hold what other writers saved since {@code base}.
     *
     * <p>The list is matched against the base window in order, by content ({@link Message#sameContentAs}, so frameworks
     * that do not carry ids match too): its longest leading part that is a subsequence of the base window is kept, the
     * base window's other messages are evicted, and the rest of the list is appended. Applied to {@code current},
     * messages that other writers added or kept stay, so concurrent changes never drop each other's messages. A base
     * the current history no longer extends (the conversation was rolled back or deleted and written again since) is
     * stale: applying the list would evict the other writer's messages, so the change is refused; after a deletion that
     * left nothing stored, the list is written as a new conversation. The window's head is aligned when the edit is
     * saved ({@link #aligned}).
     *
     * @throws ConversationConflictException when {@code base} is stale and {@code current} holds messages
     */
    static ConversationEdit replace(Conversation base, Conversation current, List<Message> messages) {
        boolean extendsBase = extendsBase(current, base);
        if (!extendsBase && !current.history().isEmpty()) {
            throw ConversationConflictException.staleBase(current.conversationId(), base.version(), current.version());
        }
        Conversation from = extendsBase ? base : current;
        int[] keptIndexes = keptIndexes(from.messages(), messages);
        int matched = keptIndexes.length;
        int[] kept = new int[matched];
        for (int i = 0; i < matched; i++) {
            kept[i] = from.window().position(keptIndexes[i]);
        }
        ConversationWindow keptWindow = ConversationWindow.of(kept);
        ConversationWindow evicted = from.window().minus(keptWindow);
        List<Message> appended = messages.subList(matched, messages.size());
        int size = current.history().size();
        ConversationWindow window = current.window()
                .minus(evicted)
                .plus(keptWindow)
                .plus(ConversationWindow.range(size, size + appended.size()));
        return new ConversationEdit(appended, window);
    }

    /** Whether the edit changes nothing in {@code current}. */
    boolean changesNothing(Conversation current) {
        return appended.isEmpty() && window.equals(current.window());
    }

    private static boolean extendsBase(Conversation current, Conversation base) {
        if (!current.conversationId().equals(base.conversationId())
                || current.history().size() < base.history().size()) {
            return false;
        }
        for (int i = 0; i < base.window().size(); i++) {
            int p = base.window().position(i);
            if (!current.history().get(p).equals(base.history().get(p))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The indexes in {@code window} of the longest leading part of {@code messages} found in it in order, by content:
     * the messages a replace keeps.
     */
    private static int[] keptIndexes(List<Message> window, List<Message> messages) {
        int[] kept = new int[messages.size()];
        int matched = 0;
        int next = 0;
        for (Message message : messages) {
            int found = indexOfSameContent(window, message, next);
            if (found < 0) {
                break;
            }
            kept[matched++] = found;
            next = found + 1;
        }
        return Arrays.copyOf(kept, matched);
    }

    /**
     * Whether the messages of {@code window} that a replace by {@code messages} drops (system messages aside) all come
     * before the first non-system message it keeps.
     */
    static boolean dropsOnlyTheHead(List<Message> window, List<Message> messages) {
        int[] kept = keptIndexes(window, messages);
        int k = 0;
        while (k < kept.length && window.get(kept[k]).role() == Message.Role.SYSTEM) {
            k++;
        }
        if (k == kept.length) {
            return true;
        }
        for (int i = kept[k] + 1, next = k + 1; i < window.size(); i++) {
            if (next < kept.length && kept[next] == i) {
                next++;
            } else if (window.get(i).role() != Message.Role.SYSTEM) {
                return false;
            }
        }
        return true;
    }

    private static int indexOfSameContent(List<Message> window, Message message, int from) {
        for (int i = from; i < window.size(); i++) {
            if (window.get(i).sameContentAs(message)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * This edit with its window's head aligned by {@link WindowRule} over the history it grows from {@code history}.
     */
    ConversationEdit aligned(List<Message> history) {
        int size = history.size();
        List<Message> grown = new AbstractList<>() { // a view: nothing is copied
                    @Override
                    public Message get(int index) {
                        return index < size ? history.get(index) : appended.get(index - size);
                    }

                    @Override
                    public int size() {
                        return size + appended.size();
                    }
                };
        return new ConversationEdit(appended, alignHead(grown, window));
    }

    /**
     * {@code window} over {@code history} without the messages {@link WindowRule#alignHead} drops from its head: the
     * one place the rule is applied, to every window saved and read.
     */
    static ConversationWindow alignHead(List<Message> history, ConversationWindow window) {
        List<Message> messages = new AbstractList<>() { // a view: the rule looks at the head only
                    @Override
                    public Message get(int index) {
                        return history.get(window.position(index));
                    }

                    @Override
                    public int size() {
                        return window.size();
                    }
                };
        int orphaned = WindowRule.orphanedHeadLength(messages);
        if (orphaned == 0) {
            return window;
        }
        int pinned = WindowRule.leadingSystemMessages(messages);
        return window.withoutIndexes(pinned, pinned + orphaned);
    }
}
