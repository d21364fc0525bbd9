package dev.agentpersistence.cli.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.Message;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A checkpoint printed for people: its header, state and metadata, then its messages as a conversation in which each
 * tool call is followed by its result.
 */
public final class ConversationPrinter {
    private ConversationPrinter() {}

    /** Prints {@code checkpoint}. */
    public static void print(AgentCheckpoint checkpoint, PrintWriter out) {
        Objects.requireNonNull(checkpoint, "checkpoint");
        out.println("agent    " + e(checkpoint.agentId()));
        out.println("version  " + checkpoint.version()
                + (checkpoint.isTombstone() ? " (tombstone: the run finished)" : ""));
        out.println("id       " + e(checkpoint.checkpointId()));
        out.println("created  " + checkpoint.createdAt());
        out.println("node     " + e(checkpoint.nodeId()));
        if (checkpoint.parentCheckpointId() != null) {
            out.println("parent   " + e(checkpoint.parentCheckpointId()));
        }
        if (checkpoint.lastInput() != null) {
            out.println("input    "
                    + (checkpoint.lastInputType() == null ? "" : "(" + e(checkpoint.lastInputType()) + ") ")
                    + e(Json.line(checkpoint.lastInput())));
        }
        checkpoint.metadata().forEach((key, value) -> out.println("meta     " + e(key) + " = " + e(value)));
        checkpoint.state().forEach((key, value) -> out.println("state    " + e(key) + " = " + e(Json.line(value))));
        out.println();
        print(checkpoint.messageHistory(), 0, out);
        out.flush();
    }

    /** Prints {@code messages}, numbered from {@code firstIndex}, tool results under their calls. */
    public static void print(List<Message> messages, int firstIndex, PrintWriter out) {
        Map<String, Integer> resultOf = new HashMap<>();
        for (int i = 0; i < messages.size(); i++) {
            Message message = messages.get(i);
            String callId = message.metadata().get(Message.TOOL_CALL_ID);
            if (message.role() == Message.Role.TOOL_RESULT && callId != null) {
                resultOf.putIfAbsent(callId, i);
            }
        }
        Set<Integer> printed = new HashSet<>();
        for (int i = 0; i < messages.size(); i++) {
            if (printed.contains(i)) {
                continue;
            }
            Message message = messages.get(i);
            out.println(line(firstIndex + i, message, ""));
            if (message.toolCall() != null) {
                Integer result = resultOf.get(message.toolCall().id());
                if (result != null && result > i) {
                    out.println(line(firstIndex + result, messages.get(result), "  -> "));
                    printed.add(result);
                }
            }
        }
    }

    /** One message on one line (content with line breaks shown as "\n"). */
    public static String line(int index, Message message, String indent) {
        String role = switch (message.role()) {
            case SYSTEM -> "system";
            case USER -> "user";
            case ASSISTANT -> "assistant";
            case TOOL_CALL -> "tool call";
            case TOOL_RESULT -> "tool result";
        };
        var text =
                new StringBuilder(indent).append('[').append(index).append("] ").append(String.format("%-11s ", role));
        if (message.toolCall() != null) {
            text.append(e(message.toolCall().toolName()))
                    .append(' ')
                    .append(e(Json.line(message.toolCall().arguments())))
                    .append("  (call ")
                    .append(e(message.toolCall().id()))
                    .append(')');
            if (!message.content().isEmpty()) {
                text.append(' ').append(escape(message.content()));
            }
        } else if (message.role() == Message.Role.TOOL_RESULT) {
            text.append(e(message.metadata().getOrDefault(Message.TOOL_NAME, "?")))
                    .append(" (call ")
                    .append(e(message.metadata().getOrDefault(Message.TOOL_CALL_ID, "?")))
                    .append("): ")
                    .append(escape(message.content()));
        } else {
            text.append(escape(message.content()));
        }
        for (ContentPart part : message.parts()) {
            if (part instanceof ContentPart.Media media) {
                text.append("  [")
                        .append(media.kind().toString().toLowerCase(java.util.Locale.ROOT))
                        .append(' ')
                        .append(media.mimeType() == null ? "" : e(media.mimeType()))
                        .append(media.url() != null ? " " + e(media.url()) : " " + media.size() + " bytes")
                        .append(']');
            }
        }
        return text.toString();
    }

    private static String escape(String content) {
        return TerminalText.escape(content.replace("\r\n", "\n"));
    }

    private static String e(String text) {
        return TerminalText.escape(text);
    }
}
