package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ToolCallHistoryTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private static ToolCall create(String id, String name) {
        return new ToolCall(id, "createUser", JSON.objectNode().put("name", name));
    }

    private static List<Message> history(Message... messages) {
        return new ArrayList<>(List.of(messages));
    }

    private final ToolCall alex = create("c1", "Alex");
    private final ToolCall daniel = create("c2", "Daniel");
    private final ToolCall maria = create("c3", "Maria");

    private final List<Message> atCheckpoint = history(
            Message.system("You manage users"),
            Message.user("create Alex"),
            Message.toolCall(alex),
            Message.toolResult("c1", "createUser", "ok"));

    @Test
    void anExtendedHistoryYieldsEveryCallMadeSince() {
        var current = history(atCheckpoint.toArray(Message[]::new));
        current.add(Message.user("create Daniel and Maria"));
        current.add(Message.toolCall(daniel));
        current.add(Message.toolResult("c2", "createUser", "ok"));
        current.add(Message.toolCall(maria));

        assertThat(ToolCallHistory.commonPrefixLength(atCheckpoint, current)).isEqualTo(4);
        assertThat(ToolCallHistory.callsAfter(atCheckpoint, current)).containsExactly(daniel, maria);
    }

    @Test
    void anUnchangedHistoryYieldsNothing() {
        assertThat(ToolCallHistory.callsAfter(atCheckpoint, atCheckpoint)).isEmpty();
        assertThat(ToolCallHistory.callsAfter(List.of(), List.of())).isEmpty();
    }

    @Test
    void aHistoryEditedBeforeTheCheckpointLengthIsComparedFromTheFirstDifference() {
        // The user message at index 1 was rewritten after the checkpoint, then two calls were made.
        var current = history(
                Message.system("You manage users"),
                Message.user("create Alex (edited)"),
                Message.toolCall(alex),
                Message.toolResult("c1", "createUser", "ok"),
                Message.toolCall(daniel),
                Message.toolCall(maria));

        assertThat(ToolCallHistory.commonPrefixLength(atCheckpoint, current)).isEqualTo(1);
        // Alex is beyond the common prefix but the checkpoint itself holds that call: not undone.
        assertThat(ToolCallHistory.callsAfter(atCheckpoint, current)).containsExactly(daniel, maria);
    }

    @Test
    void aHistoryTruncatedBelowTheCheckpointLengthStillYieldsTheNewCalls() {
        // The conversation was cut back to its first message, then Maria was created.
        var current =
                history(Message.system("You manage users"), Message.user("create Maria"), Message.toolCall(maria));

        assertThat(ToolCallHistory.commonPrefixLength(atCheckpoint, current)).isEqualTo(1);
        assertThat(ToolCallHistory.callsAfter(atCheckpoint, current)).containsExactly(maria);
    }

    @Test
    void aCallWithTheSameIdButOtherArgumentsIsADifferentCall() {
        var rewritten = new ToolCall("c1", "createUser", JSON.objectNode().put("name", "Alexandra"));
        var current = history(Message.system("You manage users"), Message.toolCall(rewritten));

        assertThat(ToolCallHistory.callsAfter(atCheckpoint, current)).containsExactly(rewritten);
    }

    @Test
    void onlyToolCallMessagesWithACallCount() {
        var odd = new Message(Message.Role.TOOL_CALL, "no call attached", null, Map.of());
        var current = history(atCheckpoint.toArray(Message[]::new));
        current.add(odd);
        current.add(Message.assistant("done"));
        current.add(Message.toolResult("c9", "createUser", "ok"));

        assertThat(ToolCallHistory.callsAfter(atCheckpoint, current)).isEmpty();
    }

    @Test
    void anEmptyCheckpointHistoryMeansEveryCallIsAfterIt() {
        assertThat(ToolCallHistory.callsAfter(List.of(), atCheckpoint)).containsExactly(alex);
    }
}
