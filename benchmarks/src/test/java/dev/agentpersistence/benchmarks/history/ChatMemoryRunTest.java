package dev.agentpersistence.benchmarks.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.Message;
import dev.agentpersistence.inmemory.InMemoryStorage;
import dev.agentpersistence.langchain4j.AgentPersistenceChatMemoryStore;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import org.junit.jupiter.api.Test;

class ChatMemoryRunTest {
    @Test
    void theChatGoesThroughTheWindowMemoryAndOurStoreKeepsTheWholeHistory() {
        var run = new ChatMemoryRun(20, 200, 8);
        var store = AgentPersistenceChatMemoryStore.of(InMemoryStorage.builder().build());

        var ours = run.run(store);
        var theirs = run.run(new InMemoryChatMemoryStore());

        assertThat(ours.turnNanos()).hasSize(20);
        assertThat(java.util.Arrays.stream(ours.turnNanos()).min().orElseThrow())
                .isPositive();
        assertThat(ours.updates()).isEqualTo(1 + 20 * 2 + 2 * 2).isEqualTo(theirs.updates());
        assertThat(ours.listRewriteBytes()).isEqualTo(theirs.listRewriteBytes());
        assertThat(ours.finalWindowBytes()).isEqualTo(theirs.finalWindowBytes());
        var conversation = store.conversations().load("chat-benchmark");
        assertThat(conversation.messages()).hasSize(8);
        assertThat(conversation.history()).hasSize(1 + 20 * 2 + 2 * 2);
        assertThat(conversation.history().stream().filter(m -> m.role() == Message.Role.TOOL_CALL))
                .hasSize(2);
    }
}
