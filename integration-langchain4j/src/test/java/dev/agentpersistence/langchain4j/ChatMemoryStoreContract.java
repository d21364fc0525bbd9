package dev.agentpersistence.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.memory.WindowRule;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The chat memory store under real LangChain4j classes: an AI Service with a window memory and a tool, driven through
 * several turns by a scripted model; the same tests run on every backend.
 */
abstract class ChatMemoryStoreContract {
    /** What the AI Service under test offers. */
    interface Assistant {
        @dev.langchain4j.service.SystemMessage("You are a helpful assistant.")
        String chat(@MemoryId String conversation, @dev.langchain4j.service.UserMessage String text);
    }

    private final List<PersistenceStorageProvider<CheckpointFilter>> opened = new ArrayList<>();
    private PersistenceStorageProvider<CheckpointFilter> provider;
    private final String conversation = "chat-" + UUID.randomUUID();

    /** A provider over the backend under test; called again to act as another process on the same data. */
    protected abstract PersistenceStorageProvider<CheckpointFilter> openProvider();

    @BeforeEach
    void open() {
        provider = track(openProvider());
    }

    @AfterEach
    void close() {
        opened.forEach(PersistenceStorageProvider::close);
    }

    private PersistenceStorageProvider<CheckpointFilter> track(PersistenceStorageProvider<CheckpointFilter> p) {
        opened.add(p);
        return p;
    }

    private static Assistant assistant(
            AgentPersistenceChatMemoryStore store, ScriptedChatModel model, Users users, int maxMessages) {
        return AiServices.builder(Assistant.class)
                .chatModel(model)
                .chatMemoryProvider(id -> MessageWindowChatMemory.builder()
                        .id(id)
                        .maxMessages(maxMessages)
                        .chatMemoryStore(store)
                        .build())
                .tools(users)
                .build();
    }

    @Test
    void anAiServiceKeepsItsConversationAndToolCallsAcrossTurnsAndRestarts() {
        var store = AgentPersistenceChatMemoryStore.of(provider);
        var model = new ScriptedChatModel();
        var users = new Users();
        var assistant = assistant(store, model, users, 20);

        assertThat(assistant.chat(conversation, "hello")).isEqualTo("echo: hello");
        assertThat(assistant.chat(conversation, "create user ada")).isEqualTo("Done: created ada");
        assertThat(assistant.chat(conversation, "thanks")).isEqualTo("echo: thanks");

        assertThat(users.names).containsExactly("ada");
        var window = store.getMessages(conversation);
        assertThat(window).hasSize(9);
        assertThat(window.get(0)).isEqualTo(SystemMessage.from("You are a helpful assistant."));
        assertThat(window.get(4))
                .isInstanceOfSatisfying(
                        AiMessage.class,
                        ai -> assertThat(ai.toolExecutionRequests().get(0).arguments())
                                .isEqualTo("{\"name\":\"ada\"}"));
        assertThat(window.get(5))
                .isInstanceOfSatisfying(
                        ToolExecutionResultMessage.class,
                        result -> assertThat(result.text()).isEqualTo("created ada"));
        assertThat(model.requests.get(2)).isEqualTo(window.subList(0, 6)); // the model saw the call and its result

        var stored = store.conversations().load(conversation).history();
        assertThat(stored)
                .filteredOn(m -> m.role() == Message.Role.TOOL_CALL)
                .singleElement()
                .satisfies(call -> assertThat(call.toolCall().toolName()).isEqualTo("createUser"));
        assertThat(store.conversations()
                        .storage()
                        .getCheckpoints(store.conversations().agentId(conversation)))
                .as("one checkpoint per memory update")
                .hasSize(9);

        var restarted = AgentPersistenceChatMemoryStore.of(track(openProvider()));
        assertThat(restarted.getMessages(conversation)).isEqualTo(window);
        var resumed = assistant(restarted, new ScriptedChatModel(), users, 20);
        assertThat(resumed.chat(conversation, "still there?")).isEqualTo("echo: still there?");
        assertThat(restarted.getMessages(conversation)).hasSize(11).startsWith(window.toArray(ChatMessage[]::new));
    }

    @Test
    void aSmallWindowEvictsFromTheWindowOnlyAndNeverLeadsWithAnOrphanedToolResult() {
        var store = AgentPersistenceChatMemoryStore.of(provider);
        var model = new ScriptedChatModel();
        var assistant = assistant(store, model, new Users(), 4);

        assistant.chat(conversation, "hello");
        assistant.chat(conversation, "create user ada");
        assistant.chat(conversation, "create user bob");
        assistant.chat(conversation, "bye");

        for (var request : model.requests) { // every window the model was handed
            assertThat(WindowRule.orphanedHeadLength(LangChain4jMessages.toMessages(request)))
                    .isZero();
            assertThat(request.get(0)).isInstanceOf(SystemMessage.class);
        }
        var conversationNow = store.conversations().load(conversation);
        assertThat(conversationNow.messages()).hasSizeLessThanOrEqualTo(4);
        assertThat(conversationNow.history())
                .extracting(Message::content)
                .contains(
                        "hello",
                        "echo: hello",
                        "create user ada",
                        "created ada",
                        "Done: created ada",
                        "bye",
                        "echo: bye");
        assertThat(conversationNow.history().stream().filter(m -> m.role() == Message.Role.TOOL_CALL))
                .hasSize(2);
    }

    @Test
    void aRollbackUndoesTheToolCallsTheAiServiceMadeSinceTheCheckpoint() {
        var store = AgentPersistenceChatMemoryStore.of(provider);
        var users = new Users();
        var assistant = assistant(store, new ScriptedChatModel(), users, 20);
        assistant.chat(conversation, "hello");
        var beforeTools = store.conversations().load(conversation);
        assistant.chat(conversation, "create user ada");
        assistant.chat(conversation, "create user bob");
        assertThat(users.names).containsExactlyInAnyOrder("ada", "bob");

        var tools = RollbackToolRegistry.builder()
                .registerRollback("createUser", users.deleteUser())
                .build();
        var report = store.conversations()
                .rollbackTo(conversation, beforeTools.checkpoint().orElseThrow().checkpointId(), tools);

        assertThat(report.toolRollback().performed()).hasSize(2);
        assertThat(users.names).isEmpty();
        assertThat(store.getMessages(conversation)).isEqualTo(LangChain4jMessages.fromMessages(beforeTools.messages()));
        assertThat(assistant.chat(conversation, "again")).isEqualTo("echo: again");
    }

    @Test
    void eightThreadsAddingToOneMemoryIdLoseNothingAndKeepTheirOrder() throws Exception {
        int threads = 8;
        int perThread = 15;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            var start = new CountDownLatch(1);
            var futures = new ArrayList<Future<?>>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                // one store per thread over its own provider: as separate processes sharing the backend
                var store = AgentPersistenceChatMemoryStore.of(t % 2 == 0 ? provider : track(openProvider()));
                var memory = MessageWindowChatMemory.builder()
                        .id(conversation)
                        .maxMessages(1000)
                        .chatMemoryStore(store)
                        .build();
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        memory.add(UserMessage.from(thread + ":" + i));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (var future : futures) {
                future.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        var texts = AgentPersistenceChatMemoryStore.of(provider).getMessages(conversation).stream()
                .map(m -> ((UserMessage) m).singleText())
                .collect(Collectors.toList());
        assertThat(texts).hasSize(threads * perThread);
        for (int t = 0; t < threads; t++) {
            String prefix = t + ":";
            var expected = new ArrayList<String>();
            for (int i = 0; i < perThread; i++) {
                expected.add(prefix + i);
            }
            assertThat(texts.stream().filter(s -> s.startsWith(prefix))).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void clearingTheMemoryDeletesTheConversationOrKeepsItsHistory() {
        var store = AgentPersistenceChatMemoryStore.of(provider);
        var memory = MessageWindowChatMemory.builder()
                .id(conversation)
                .maxMessages(10)
                .chatMemoryStore(store)
                .build();
        memory.add(UserMessage.from("a"));
        memory.clear();
        assertThat(store.getMessages(conversation)).isEmpty();
        assertThat(store.conversations().load(conversation).history()).isEmpty();

        var keeping = AgentPersistenceChatMemoryStore.keepingHistory(store.conversations());
        var kept = MessageWindowChatMemory.builder()
                .id(conversation)
                .maxMessages(10)
                .chatMemoryStore(keeping)
                .build();
        kept.add(UserMessage.from("b"));
        kept.clear();
        assertThat(kept.messages()).isEmpty();
        assertThat(keeping.conversations().load(conversation).history())
                .extracting(Message::content)
                .containsExactly("b");
    }
}
