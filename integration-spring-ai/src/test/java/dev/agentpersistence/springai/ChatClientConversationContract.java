package dev.agentpersistence.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message.Role;
import dev.agentpersistence.PersistenceStorageProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.InMemoryChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

/**
 * A {@link ChatClient} with {@link MessageChatMemoryAdvisor} over {@link MessageWindowChatMemory} and our repository,
 * driven by a deterministic model through several turns with a tool call. Spring AI's own
 * {@link InMemoryChatMemoryRepository} running the same script is the oracle: the model must see the same prompts and
 * the memory must hold the same messages. Each backend's test extends this class.
 */
abstract class ChatClientConversationContract {
    private static final List<String> SCRIPT = List.of(
            "Hello, I am Ana",
            "What is the weather in Paris?",
            "Thanks, that helps",
            "And the weather in Rome?",
            "Which cities did I ask about?");

    private final List<PersistenceStorageProvider<CheckpointFilter>> opened = new ArrayList<>();
    protected final String prefix = "spring-ai-test-" + UUID.randomUUID() + ":";

    /** A new provider over this test's storage; two calls give two providers over the same data. */
    protected abstract PersistenceStorageProvider<CheckpointFilter> openProvider();

    @AfterEach
    void closeProviders() throws Exception {
        for (var provider : opened) {
            provider.close();
        }
    }

    private AgentPersistenceChatMemoryRepository repository() {
        var provider = openProvider();
        opened.add(provider);
        return AgentPersistenceChatMemoryRepository.builder(provider)
                .conversationIdPrefix(prefix)
                .build();
    }

    @Test
    void severalTurnsWithAToolCallAreRememberedExactlyAndSurviveARestart() {
        String conversation = "conv-" + UUID.randomUUID();
        var ours = new Run(repository(), 100);
        var oracle = new Run(new InMemoryChatMemoryRepository(), 100);

        for (String question : SCRIPT.subList(0, 3)) {
            assertThat(ours.ask(conversation, question)).isEqualTo(oracle.ask(conversation, question));
        }

        assertThat(ours.model.lastPrompt().get(0).getText()).isEqualTo("Hello, I am Ana");
        SameMessages.assertSame(
                ours.repository.findByConversationId(conversation),
                oracle.repository.findByConversationId(conversation));
        assertThat(ours.repository.findByConversationId(conversation))
                .extracting(Message::getMessageType)
                .containsExactly(
                        MessageType.USER,
                        MessageType.ASSISTANT,
                        MessageType.USER,
                        MessageType.ASSISTANT,
                        MessageType.TOOL,
                        MessageType.ASSISTANT,
                        MessageType.USER,
                        MessageType.ASSISTANT);
        assertThat(ours.tool.inputs()).containsExactly("{\"city\":\"Paris\"}");

        // A new JVM: a new provider and repository over the same storage continue the conversation.
        var restarted = new Run(repository(), 100);
        SameMessages.assertSame(
                restarted.repository.findByConversationId(conversation),
                oracle.repository.findByConversationId(conversation));
        for (String question : SCRIPT.subList(3, SCRIPT.size())) {
            assertThat(restarted.ask(conversation, question)).isEqualTo(oracle.ask(conversation, question));
        }
        assertThat(restarted.model.lastPrompt()).hasSize(13);
        SameMessages.assertSame(
                restarted.repository.findByConversationId(conversation),
                oracle.repository.findByConversationId(conversation));
    }

    @Test
    void toolCallsAreStoredAsToolCallMessagesPairedWithTheirResults() {
        String conversation = "conv-" + UUID.randomUUID();
        var ours = new Run(repository(), 100);
        ours.ask(conversation, "What is the weather in Paris?");

        var provider = openProvider();
        opened.add(provider);
        var stored = provider.getLatestCheckpoint("@spring-ai/" + prefix + conversation, CheckpointFilter.ALL)
                .orElseThrow()
                .messageHistory();
        assertThat(stored)
                .extracting(dev.agentpersistence.Message::role)
                .containsExactly(Role.USER, Role.ASSISTANT, Role.TOOL_CALL, Role.TOOL_RESULT, Role.ASSISTANT);
        var call = stored.get(2).toolCall();
        assertThat(call.toolName()).isEqualTo("weather");
        assertThat(call.arguments().get("city").asText()).isEqualTo("Paris");
        assertThat(stored.get(3).metadata()).containsEntry(dev.agentpersistence.Message.TOOL_CALL_ID, call.id());
    }

    @Test
    void underEveryWindowSizeTheModelSeesWhatSpringAisOwnRepositoryGivesIt() {
        for (int window = 2; window <= 9; window++) {
            String conversation = "window-" + window + "-" + UUID.randomUUID();
            var ours = new Run(repository(), window);
            var oracle = new Run(new InMemoryChatMemoryRepository(), window);
            for (String question : SCRIPT) {
                assertThat(ours.ask(conversation, question))
                        .as("window %d: %s", window, question)
                        .isEqualTo(oracle.ask(conversation, question));
            }
            assertThat(ours.model.prompts()).hasSameSizeAs(oracle.model.prompts());
            for (int p = 0; p < ours.model.prompts().size(); p++) {
                SameMessages.assertSame(
                        ours.model.prompts().get(p), oracle.model.prompts().get(p));
                assertNoOrphanAtTheHead(ours.model.prompts().get(p));
            }
            SameMessages.assertSame(
                    ours.repository.findByConversationId(conversation),
                    oracle.repository.findByConversationId(conversation));
        }
    }

    @Test
    void conversationsAreListedAndDeleted() {
        var repository = repository();
        String first = "list-a-" + UUID.randomUUID();
        String second = "list-b-" + UUID.randomUUID();
        var run = new Run(repository, 20);
        run.ask(first, "Hello, I am Ana");
        run.ask(second, "What is the weather in Oslo?");

        assertThat(repository.findConversationIds()).containsExactlyInAnyOrder(first, second);

        repository.deleteByConversationId(first);

        assertThat(repository.findConversationIds()).containsExactly(second);
        assertThat(repository.findByConversationId(first)).isEmpty();
        assertThat(repository().findByConversationId(second)).hasSize(4);
    }

    @Test
    void eightThreadsSavingOneConversationLoseNothingAndKeepTheirOrder() throws Exception {
        String conversation = "concurrent-" + UUID.randomUUID();
        int threads = 8;
        int perThread = 10;
        var pool = Executors.newFixedThreadPool(threads);
        var start = new CountDownLatch(1);
        var done = new ArrayList<Future<?>>();
        for (int t = 0; t < threads; t++) {
            // Every thread is an application instance of its own: its own repository and memory.
            var memory = MessageWindowChatMemory.builder()
                    .chatMemoryRepository(repository())
                    .maxMessages(1000)
                    .build();
            int thread = t;
            done.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < perThread; i++) {
                    memory.add(conversation, new UserMessage("t" + thread + "-" + i));
                }
                return null;
            }));
        }
        start.countDown();
        for (var future : done) {
            future.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();

        List<String> texts = repository().findByConversationId(conversation).stream()
                .map(Message::getText)
                .toList();
        assertThat(texts).hasSize(threads * perThread).doesNotHaveDuplicates();
        for (int t = 0; t < threads; t++) {
            String own = "t" + t + "-";
            assertThat(texts.stream().filter(text -> text.startsWith(own)).toList())
                    .as("thread %d in order", t)
                    .containsExactlyElementsOf(
                            IntStream.range(0, perThread).mapToObj(i -> own + i).toList());
        }
    }

    /** A tool response, or an assistant tool call whose response is missing, never opens a prompt. */
    private static void assertNoOrphanAtTheHead(List<Message> prompt) {
        Message head = prompt.get(0);
        assertThat(head).as("head of the prompt").isNotInstanceOf(ToolResponseMessage.class);
        if (head instanceof AssistantMessage assistant && assistant.hasToolCalls()) {
            assertThat(prompt).as("the results of the head's tool calls").hasSizeGreaterThan(1);
            assertThat(prompt.get(1)).isInstanceOf(ToolResponseMessage.class);
        }
    }

    /** One application: a scripted model, the weather tool, and memory over a repository. */
    static final class Run {
        final ScriptedChatModel model = new ScriptedChatModel();
        final WeatherTool tool = new WeatherTool();
        final ChatMemoryRepository repository;
        final ChatClient client;

        Run(ChatMemoryRepository repository, int window) {
            this.repository = repository;
            var memory = MessageWindowChatMemory.builder()
                    .chatMemoryRepository(repository)
                    .maxMessages(window)
                    .build();
            // Inside the tool loop, so that tool calls and their results are remembered too.
            this.client = ChatClient.builder(model)
                    .defaultAdvisors(MessageChatMemoryAdvisor.builder(memory)
                            .order(ToolCallingAdvisor.DEFAULT_ORDER + 1)
                            .build())
                    .defaultTools(tool)
                    .build();
        }

        String ask(String conversation, String question) {
            return client.prompt()
                    .user(question)
                    .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversation))
                    .call()
                    .content();
        }
    }
}
