package dev.agentpersistence.memory;

import dev.agentpersistence.Message;
import dev.agentpersistence.Message.Role;
import java.util.List;
import java.util.Objects;

/**
 * The rule for the head of a window handed to a model: it never starts with an orphaned tool result or with a tool call
 * whose result was evicted. Models reject both (a result must answer a call the model can see; a call must be answered
 * before the conversation goes on).
 *
 * <p>{@link #alignHead} keeps the leading {@link Role#SYSTEM} messages (frameworks pin them in front of every window),
 * then drops, from the first message after them, while the head is
 *
 * <ul>
 *   <li>a {@link Role#TOOL_RESULT}: its call is not in the window before it, or
 *   <li>a {@link Role#TOOL_CALL} whose result (the {@code TOOL_RESULT} with its call id in
 *       {@link Message#TOOL_CALL_ID}) does not follow it, while a message other than a tool call or tool result does:
 *       the conversation went on without the result, so it was evicted.
 * </ul>
 *
 * A tool call at the very end of the window, followed only by tool calls and results, is pending (its tool has not run
 * yet) and stays. {@link ConversationStore} applies the rule to every window it saves (appends and replaces alike) and
 * to every window it reads, so a window stored unaligned (by an earlier version, or by a framework that evicted a call
 * and then handed over its result alone) is read aligned too.
 */
public final class WindowRule {
    private WindowRule() {}

    /** The window with its head aligned; the same list when nothing is dropped. */
    public static List<Message> alignHead(List<Message> window) {
        int pinned = leadingSystemMessages(window);
        int orphaned = orphanedHeadLength(window);
        if (orphaned == 0) {
            return window;
        }
        var aligned = new java.util.ArrayList<>(window.subList(0, pinned));
        aligned.addAll(window.subList(pinned + orphaned, window.size()));
        return List.copyOf(aligned);
    }

    /** How many {@link Role#SYSTEM} messages the window starts with. */
    public static int leadingSystemMessages(List<Message> window) {
        Objects.requireNonNull(window, "window");
        int count = 0;
        while (count < window.size() && window.get(count).role() == Role.SYSTEM) {
            count++;
        }
        return count;
    }

    /**
     * How many messages right after the leading system messages {@link #alignHead} drops: 0 when the head is aligned.
     */
    public static int orphanedHeadLength(List<Message> window) {
        int start = leadingSystemMessages(window);
        int head = start;
        while (head < window.size() && isOrphan(window, head)) {
            head++;
        }
        return head - start;
    }

    private static boolean isOrphan(List<Message> window, int index) {
        var message = window.get(index);
        if (message.role() == Role.TOOL_RESULT) {
            return true; // at the head, nothing before it but system messages: its call is gone
        }
        if (message.role() != Role.TOOL_CALL || message.toolCall() == null) {
            return false;
        }
        String callId = message.toolCall().id();
        boolean conversationWentOn = false;
        for (int i = index + 1; i < window.size(); i++) {
            var later = window.get(i);
            if (later.role() == Role.TOOL_RESULT
                    && callId.equals(later.metadata().get(Message.TOOL_CALL_ID))) {
                return false;
            }
            if (later.role() != Role.TOOL_RESULT && later.role() != Role.TOOL_CALL) {
                conversationWentOn = true;
            }
        }
        return conversationWentOn;
    }
}
