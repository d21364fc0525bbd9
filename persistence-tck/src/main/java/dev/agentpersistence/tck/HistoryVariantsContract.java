package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Histories that do not extend the previous one — truncated, edited, rolled back and diverged, emptied, repeated — and
 * histories of every length around block boundaries read back exactly.
 */
abstract class HistoryVariantsContract extends Contract {

    HistoryVariantsContract(KitSession session) {
        super(session);
    }

    private List<AgentCheckpoint> saveHistories(String agent, List<List<Message>> histories) {
        var saved = new ArrayList<AgentCheckpoint>();
        long version = 0;
        for (var history : histories) {
            var checkpoint = GrowingRun.checkpoint(agent, version++, history);
            provider().saveCheckpoint(agent, checkpoint);
            saved.add(checkpoint);
        }
        return saved;
    }

    private void assertReadBack(String agent, List<AgentCheckpoint> saved) {
        assertThat(provider().getCheckpoints(agent)).as("getCheckpoints").containsExactlyElementsOf(saved);
        for (var checkpoint : saved) {
            assertThat(provider()
                            .getLatestCheckpoint(
                                    agent,
                                    CheckpointFilter.builder()
                                            .maxVersion(checkpoint.version())
                                            .build()))
                    .as("version %d", checkpoint.version())
                    .contains(checkpoint);
        }
    }

    @Test
    @DisplayName(
            "truncated, edited, shifted, rolled back and diverged, emptied and repeated histories read back exactly")
    void nonExtensions() {
        String agent = agent("variants");
        var base = Checkpoints.history(600);
        var edited = new ArrayList<>(base);
        edited.set(300, Message.user("edited in the middle"));
        var editedFirst = new ArrayList<>(base);
        editedFirst.set(0, Message.system("another system prompt"));
        var shifted = new ArrayList<>(base);
        shifted.remove(40);
        var diverged = new ArrayList<>(base.subList(0, 270));
        diverged.addAll(Checkpoints.history(90));
        var histories = List.of(
                base,
                base.subList(0, 300),
                edited,
                editedFirst,
                shifted,
                base.subList(0, 270),
                diverged,
                List.<Message>of(),
                base,
                base.subList(0, 1),
                base.subList(100, 600));
        assertReadBack(agent, saveHistories(agent, histories));
    }

    @Test
    @DisplayName("histories of 0 to 4,097 messages, around every block and tier boundary, read back exactly")
    void boundaries() {
        String agent = agent("boundaries");
        var base = Checkpoints.history(4097);
        var histories = new ArrayList<List<Message>>();
        for (int size :
                new int[] {0, 1, 15, 16, 17, 31, 32, 33, 255, 256, 257, 511, 512, 513, 4095, 4096, 4097, 4000, 16}) {
            histories.add(base.subList(0, size));
        }
        assertReadBack(agent, saveHistories(agent, histories));
    }

    @Test
    @DisplayName("two agents with the same history stay independent: deleting one leaves the other exact")
    void sharedContentAcrossAgents() {
        String first = agent("same-history-a");
        String second = agent("same-history-b");
        var history = Checkpoints.history(700);
        var a = GrowingRun.checkpoint(first, 0, history);
        var b = GrowingRun.checkpoint(second, 0, history);
        provider().saveCheckpoint(first, a);
        provider().saveCheckpoint(second, b);
        assertThat(optional("deleteCheckpoints", () -> provider().deleteCheckpoints(first)))
                .isEqualTo(1);
        assertThat(provider().getCheckpoints(second)).containsExactly(b);
        assertThat(provider().getCheckpoints(first)).isEmpty();
        provider().saveCheckpoint(first, a);
        assertThat(provider().getCheckpoints(first)).containsExactly(a);
    }

    @Test
    @DisplayName("saving a long-history checkpoint again is a no-op; one different message in the middle is a conflict")
    void resaveAndConflict() {
        String agent = agent("long-resave");
        var history = Checkpoints.history(1000);
        var checkpoint = GrowingRun.checkpoint(agent, 0, history);
        provider().saveCheckpoint(agent, checkpoint);
        provider().saveCheckpoint(agent, GrowingRun.checkpoint(agent, 0, new ArrayList<>(history)));
        var changed = new ArrayList<>(history);
        changed.set(500, Message.assistant("a different answer"));
        assertThatThrownBy(() -> provider().saveCheckpoint(agent, GrowingRun.checkpoint(agent, 0, changed)))
                .isInstanceOf(CheckpointConflictException.class);
        assertThat(provider().getCheckpoints(agent)).containsExactly(checkpoint);
    }
}
