package dev.agentpersistence.langgraph4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.checkpoint.Checkpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link AgentPersistenceSaver.Builder#messagesKey}: the list under a state key stored as message history. */
class MessagesKeyTest {
    private static final RunnableConfig THREAD =
            RunnableConfig.builder().threadId("chat").build();

    @TempDir
    Path dir;

    private PersistenceStorageProvider<CheckpointFilter> sqlite(String name) {
        return JdbcStorage.builder(JdbcStorageConfig.custom()
                        .url("jdbc:sqlite:" + dir.resolve(name))
                        .build())
                .build();
    }

    private static Checkpoint step(int n, List<Object> messages) {
        return Checkpoint.builder()
                .id("step-" + n)
                .nodeId("chat")
                .nextNodeId("chat")
                .state(Map.of("messages", List.copyOf(messages), "turn", n))
                .build();
    }

    private static Map<String, Object> turn(String role, String content) {
        var turn = new LinkedHashMap<String, Object>();
        turn.put("role", role);
        turn.put("content", content);
        return turn;
    }

    @Test
    void theListIsStoredAsMessagesWithStableIdsAndReadBackEqual() {
        var withTool = new LinkedHashMap<String, Object>(turn("assistant", "calling"));
        withTool.put("toolCalls", List.of(Map.of("name", "search", "args", Map.of("q", "x"))));
        var messages = new ArrayList<Object>(List.of(
                turn("system", "be brief"),
                turn("user", "hi ✓"),
                withTool,
                "a bare string",
                42,
                turn("USER", "upper-case role stays JSON")));
        try (var provider = sqlite("stored.db")) {
            var saver = AgentPersistenceSaver.builder(provider)
                    .messagesKey("messages")
                    .build();
            saver.put(THREAD, step(0, messages));
            messages.add(turn("assistant", "done"));
            saver.put(THREAD, step(1, messages));

            List<AgentCheckpoint> stored = provider.getCheckpoints("@langgraph4j/chat");
            AgentCheckpoint last = stored.get(1);
            assertThat(last.state()).containsOnlyKeys("turn");
            assertThat(last.metadata()).containsEntry(AgentPersistenceSaver.MESSAGES_KEY, "messages");
            assertThat(last.messageHistory())
                    .extracting(Message::role)
                    .containsExactly(
                            Message.Role.SYSTEM,
                            Message.Role.USER,
                            Message.Role.ASSISTANT,
                            Message.Role.ASSISTANT,
                            Message.Role.ASSISTANT,
                            Message.Role.ASSISTANT,
                            Message.Role.ASSISTANT);
            assertThat(last.messageHistory().get(1).content()).isEqualTo("hi ✓");
            assertThat(last.messageHistory().get(2).metadata()).containsKey(MessageChannel.JSON);
            assertThat(last.messageHistory().subList(0, 6))
                    .extracting(Message::id)
                    .as("the same element at the same place has the same id in every checkpoint")
                    .isEqualTo(stored.get(0).messageHistory().stream()
                            .map(Message::id)
                            .toList());

            assertThat(saver.get(THREAD))
                    .get()
                    .extracting(Checkpoint::getState)
                    .isEqualTo(step(1, messages).getState());
            assertThat(AgentPersistenceSaver.of(provider).get(THREAD.withCheckPointId("step-0")))
                    .as("a saver without the setting")
                    .get()
                    .extracting(c -> c.getState().get("messages"))
                    .isEqualTo(messages.subList(0, 6));
        }
    }

    @Test
    void aStateWithoutTheListIsStoredAsBefore() {
        try (var provider = sqlite("plain.db")) {
            var saver = AgentPersistenceSaver.builder(provider)
                    .messagesKey("messages")
                    .build();
            saver.put(
                    THREAD,
                    Checkpoint.builder()
                            .id("a")
                            .nodeId("n")
                            .nextNodeId("n")
                            .state(Map.of("messages", "not a list"))
                            .build());
            AgentCheckpoint stored =
                    provider.getLatestCheckpoint("@langgraph4j/chat").orElseThrow();
            assertThat(stored.messageHistory()).isEmpty();
            assertThat(stored.metadata()).doesNotContainKey(AgentPersistenceSaver.MESSAGES_KEY);
            assertThat(saver.get(THREAD))
                    .get()
                    .extracting(c -> c.getState().get("messages"))
                    .isEqualTo("not a list");
        }
    }

    @Test
    void aBlankKeyIsRefused() {
        try (var provider = sqlite("blank.db")) {
            assertThatThrownBy(() -> AgentPersistenceSaver.builder(provider).messagesKey(" "))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("messagesKey");
        }
    }

    @Test
    void aGrowingConversationIsStoredOnceInsteadOfWholeInEveryCheckpoint() throws IOException {
        long whole = storedBytes("whole.db", false);
        long once = storedBytes("once.db", true);
        System.out.printf(
                "FIGURES 120 steps of +2 messages of 1 KiB on SQLite: state %,d bytes, messages key %,d bytes "
                        + "(%.1fx)%n",
                whole, once, (double) whole / once);
        assertThat(once * 4)
                .as("bytes with the messages key, times 4, against the whole state each time")
                .isLessThan(whole);
    }

    private long storedBytes(String name, boolean messagesKey) throws IOException {
        var random = new Random(7);
        var messages = new ArrayList<Object>();
        try (var provider = sqlite(name)) {
            var builder = AgentPersistenceSaver.builder(provider);
            var saver = messagesKey ? builder.messagesKey("messages").build() : builder.build();
            for (int n = 0; n < 120; n++) {
                messages.add(turn("user", text(random)));
                messages.add(turn("assistant", text(random)));
                saver.put(THREAD, step(n, messages));
            }
            assertThat(saver.get(THREAD))
                    .get()
                    .extracting(c -> ((List<?>) c.getState().get("messages")).size())
                    .isEqualTo(240);
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith(name))
                    .mapToLong(f -> f.toFile().length())
                    .sum();
        }
    }

    private static String text(Random random) {
        var text = new StringBuilder();
        while (text.length() < 1024) {
            text.append(Integer.toString(random.nextInt(Integer.MAX_VALUE), 36)).append(' ');
        }
        return text.toString();
    }
}
