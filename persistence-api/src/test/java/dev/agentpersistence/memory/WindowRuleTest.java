package dev.agentpersistence.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.Message;
import dev.agentpersistence.ToolCall;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowRuleTest {
    private static final Message SYSTEM = Message.system("be brief");
    private static final Message CALL_A = Message.toolCall(new ToolCall("a", "lookup", null));
    private static final Message RESULT_A = Message.toolResult("a", "lookup", "42");
    private static final Message CALL_B = Message.toolCall(new ToolCall("b", "lookup", null));
    private static final Message RESULT_B = Message.toolResult("b", "lookup", "43");
    private static final Message USER = Message.user("and then?");
    private static final Message ANSWER = Message.assistant("then 43");

    @Test
    void aWindowStartingWithAConversationalMessageIsAligned() {
        var window = List.of(SYSTEM, USER, CALL_A, RESULT_A, ANSWER);
        assertThat(WindowRule.orphanedHeadLength(window)).isZero();
        assertThat(WindowRule.alignHead(window)).isSameAs(window);
    }

    @Test
    void anOrphanedToolResultAtTheHeadIsDroppedAndTheSystemMessageStays() {
        var window = List.of(SYSTEM, RESULT_A, ANSWER, USER);
        assertThat(WindowRule.alignHead(window)).containsExactly(SYSTEM, ANSWER, USER);
    }

    @Test
    void aToolCallWhoseResultWasEvictedIsDroppedWithTheResultsBehindIt() {
        var window = List.of(CALL_A, CALL_B, RESULT_B, USER); // RESULT_A is gone, the conversation went on
        assertThat(WindowRule.alignHead(window)).containsExactly(CALL_B, RESULT_B, USER);
        var orphans = List.of(RESULT_B, CALL_A, USER, ANSWER);
        assertThat(WindowRule.orphanedHeadLength(orphans)).isEqualTo(2);
        assertThat(WindowRule.alignHead(orphans)).containsExactly(USER, ANSWER);
    }

    @Test
    void aToolCallWithItsResultInTheWindowStays() {
        var window = List.of(SYSTEM, CALL_A, CALL_B, RESULT_A, RESULT_B, ANSWER);
        assertThat(WindowRule.alignHead(window)).isEqualTo(window);
    }

    @Test
    void aPendingToolCallAtTheEndStays() {
        assertThat(WindowRule.alignHead(List.of(CALL_A))).containsExactly(CALL_A);
        assertThat(WindowRule.alignHead(List.of(SYSTEM, CALL_A, CALL_B, RESULT_B)))
                .containsExactly(SYSTEM, CALL_A, CALL_B, RESULT_B);
    }

    @Test
    void aWindowOfOrphansOnlyKeepsItsSystemMessages() {
        assertThat(WindowRule.alignHead(List.of(SYSTEM, RESULT_A, RESULT_B))).containsExactly(SYSTEM);
        assertThat(WindowRule.alignHead(List.of())).isEmpty();
    }
}
