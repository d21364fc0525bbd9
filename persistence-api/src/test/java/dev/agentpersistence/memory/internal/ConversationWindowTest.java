package dev.agentpersistence.memory.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.Message;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConversationWindowTest {
    @Test
    void theWholeHistoryIsStoredAsNoEntryAndReadBackFromNone() {
        assertThat(ConversationWindow.all(5).encode(5)).isNull();
        assertThat(ConversationWindow.decode(null, 5)).isEqualTo(ConversationWindow.all(5));
        assertThat(ConversationWindow.empty().encode(0)).isNull();
    }

    @Test
    void positionsAreStoredAsHalfOpenRangesAndReadBack() {
        var window = ConversationWindow.of(new int[] {7, 0, 3, 4, 5, 3});
        assertThat(window.encode(8)).isEqualTo("0-1,3-6,7-8");
        assertThat(ConversationWindow.decode("0-1,3-6,7-8", 8)).isEqualTo(window);
        assertThat(ConversationWindow.empty().encode(3)).isEmpty();
        assertThat(ConversationWindow.decode("", 3).size()).isZero();
    }

    @Test
    void plusMinusAndWithoutIndexesKeepPositionsSortedAndDistinct() {
        var window = ConversationWindow.range(0, 4)
                .minus(ConversationWindow.of(new int[] {1}))
                .plus(ConversationWindow.range(3, 6));
        assertThat(window.encode(6)).isEqualTo("0-1,2-6");
        assertThat(window.withoutIndexes(1, 3).encode(6)).isEqualTo("0-1,4-6");
        assertThat(window.contains(2)).isTrue();
        assertThat(window.contains(1)).isFalse();
    }

    @Test
    void selectReturnsTheMessagesAtThePositionsInOrder() {
        var history = List.of(Message.user("a"), Message.user("b"), Message.user("c"));
        assertThat(ConversationWindow.of(new int[] {2, 0}).select(history))
                .containsExactly(history.get(0), history.get(2));
    }

    @Test
    void malformedOrOutOfRangeRangesAreRefusedWithTheRange() {
        assertThatThrownBy(() -> ConversationWindow.decode("0-2,x-3", 4)).hasMessageContaining("'x-3'");
        assertThatThrownBy(() -> ConversationWindow.decode("2-1", 4)).hasMessageContaining("'2-1'");
        assertThatThrownBy(() -> ConversationWindow.decode("-1", 4)).hasMessageContaining("malformed");
        assertThatThrownBy(() -> ConversationWindow.decode("0-5", 4)).hasMessageContaining("outside a history of 4");
    }
}
