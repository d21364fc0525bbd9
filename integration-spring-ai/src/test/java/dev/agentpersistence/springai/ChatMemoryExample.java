package dev.agentpersistence.springai;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.model.ChatModel;

/**
 * The runnable example of the README: a {@link ChatClient} whose memory lives in an SQLite file, three turns with a
 * tool call, then a "restart" (a new provider and repository over the same file) that continues the conversation, and
 * what the store holds. The model is {@link ScriptedChatModel}, a deterministic stand-in, so the example needs no API
 * key; put your real {@link ChatModel} in its place.
 *
 * <p>Run: {@code mvn -q -pl integration-spring-ai -am -DskipTests test-compile exec:java}
 */
public final class ChatMemoryExample {
    private ChatMemoryExample() {}

    public static void main(String[] args) throws Exception {
        Path db = Path.of(args.length > 0 ? args[0] : "target/spring-ai-chat-memory.db");
        Files.createDirectories(db.toAbsolutePath().getParent());
        Files.deleteIfExists(db);
        run(db, System.out);
    }

    static void run(Path db, PrintStream out) throws Exception {
        var config = JdbcStorageConfig.custom().url("jdbc:sqlite:" + db).build();
        try (var storage = JdbcStorage.builder(config).build()) {
            ChatClient client = client(AgentPersistenceChatMemoryRepository.of(storage));
            ask(client, "Hello, I am Ana", out);
            ask(client, "What is the weather in Paris?", out);
            ask(client, "Thanks!", out);
        }
        out.println("-- restart: a new provider and repository over " + db.getFileName());
        try (var storage = JdbcStorage.builder(config).build()) {
            var repository = AgentPersistenceChatMemoryRepository.of(storage);
            out.println("remembered: " + repository.findByConversationId("ana").size() + " messages");
            ask(client(repository), "Which city did I ask about?", out);
            var stored = storage.getLatestCheckpoint(repository.agentId("ana"), CheckpointFilter.ALL)
                    .orElseThrow();
            out.println("stored as agent '" + stored.agentId() + "', version " + stored.version() + ", roles: "
                    + stored.messageHistory().stream().map(m -> m.role().name()).toList());
        }
    }

    private static ChatClient client(AgentPersistenceChatMemoryRepository repository) {
        var memory = MessageWindowChatMemory.builder()
                .chatMemoryRepository(repository)
                .maxMessages(20)
                .build();
        return ChatClient.builder(new ScriptedChatModel())
                // Inside the tool loop (order after ToolCallingAdvisor's), so tool calls and results are remembered.
                .defaultAdvisors(MessageChatMemoryAdvisor.builder(memory)
                        .order(ToolCallingAdvisor.DEFAULT_ORDER + 1)
                        .build())
                .defaultTools(new WeatherTool())
                .build();
    }

    private static void ask(ChatClient client, String question, PrintStream out) {
        String answer = client.prompt()
                .user(question)
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "ana"))
                .call()
                .content();
        out.println("> " + question);
        out.println("< " + answer);
    }
}
