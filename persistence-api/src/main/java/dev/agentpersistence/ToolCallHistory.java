package dev.agentpersistence;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * Finds the tool calls an agent made after a checkpoint, which a rollback to that checkpoint undoes.
 *
 * <p>The rule, by position: let {@code p} be the length of the longest common prefix of the checkpoint's history and
 * the current history (messages compared with {@link Message#sameContentAs}, so a history rebuilt from equal messages
 * with new ids keeps its prefix). The calls after the checkpoint are the {@link ToolCall}s of the
 * {@link Message.Role#TOOL_CALL} messages at positions {@code >= p} of the current history, oldest first, leaving out
 * any call equal to one recorded in the checkpoint's own history (its effect is part of the checkpoint).
 *
 * <p>When the current history extends the checkpoint's, {@code p} is the checkpoint's length and the result is every
 * call made since. When the history was edited or truncated before the checkpoint's length, the comparison starts at
 * the first difference, so calls in the rewritten part count as made after the checkpoint unless the checkpoint already
 * holds them.
 */
public final class ToolCallHistory {
    private ToolCallHistory() {}

    /** The length of the longest common prefix of the two histories. */
    public static int commonPrefixLength(List<Message> checkpointHistory, List<Message> currentHistory) {
        Objects.requireNonNull(checkpointHistory, "checkpointHistory");
        Objects.requireNonNull(currentHistory, "currentHistory");
        int limit = Math.min(checkpointHistory.size(), currentHistory.size());
        int p = 0;
        while (p < limit && checkpointHistory.get(p).sameContentAs(currentHistory.get(p))) {
            p++;
        }
        return p;
    }

    /**
     * The tool calls made after the checkpoint whose history is {@code checkpointHistory}, oldest first (see the class
     * documentation for the exact rule).
     */
    public static List<ToolCall> callsAfter(List<Message> checkpointHistory, List<Message> currentHistory) {
        int p = commonPrefixLength(checkpointHistory, currentHistory);
        var recorded = new HashSet<ToolCall>();
        for (var message : checkpointHistory) {
            if (message.toolCall() != null) {
                recorded.add(message.toolCall());
            }
        }
        var calls = new ArrayList<ToolCall>();
        for (int i = p; i < currentHistory.size(); i++) {
            var message = currentHistory.get(i);
            if (message.role() == Message.Role.TOOL_CALL
                    && message.toolCall() != null
                    && !recorded.contains(message.toolCall())) {
                calls.add(message.toolCall());
            }
        }
        return List.copyOf(calls);
    }
}
