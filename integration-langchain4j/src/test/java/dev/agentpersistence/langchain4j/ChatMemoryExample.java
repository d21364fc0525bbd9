package dev.agentpersistence.langchain4j;

import dev.agentpersistence.Message;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A runnable example: an AI Service whose window memory lives in SQLite through
 * {@link AgentPersistenceChatMemoryStore}. It talks for three turns (one with a tool call), "restarts" on the same
 * database file, shows the window next to the whole history, and rolls the conversation back to before the tool call,
 * which undoes the tool's side effect.
 *
 * <p>The model is {@link ScriptedChatModel}, so it runs offline; any LangChain4j {@link ChatModel} (OpenAI, Ollama,
 * ...) takes its place unchanged. Run it with {@code mvn -q -pl integration-langchain4j -am -DskipTests test-compile
 * exec:java -Dexec.classpathScope=test -Dexec.mainClass=dev.agentpersistence.langchain4j.ChatMemoryExample}.
 */
public final class ChatMemoryExample {
    /** The AI Service of the example. */
    interface Assistant {
        @dev.langchain4j.service.SystemMessage("You are a helpful assistant.")
        String chat(@dev.langchain4j.service.MemoryId String user, @dev.langchain4j.service.UserMessage String text);
    }

    private ChatMemoryExample() {}

    public static void main(String[] args) throws Exception {
        Path dir = Files.createDirectories(Path.of(args.length > 0 ? args[0] : "target/examples"));
        run(dir.resolve("chat-memory.db"), System.out);
    }

    /** Runs the example on the SQLite file {@code database}, printing to {@code out}; returns the users left. */
    static Users run(Path database, PrintStream out) throws Exception {
        Files.deleteIfExists(database);
        var users = new Users();
        String checkpointBeforeTool;
        try (var provider = JdbcStorage.builder(JdbcStorageConfig.custom()
                        .url("jdbc:sqlite:" + database)
                        .build())
                .build()) {
            var store = AgentPersistenceChatMemoryStore.of(provider);
            Assistant assistant = assistant(store, users);
            out.println("> hello            : " + assistant.chat("user-42", "hello"));
            checkpointBeforeTool = store.conversations()
                    .load("user-42")
                    .checkpoint()
                    .orElseThrow()
                    .checkpointId();
            out.println("> create user ada  : " + assistant.chat("user-42", "create user ada"));
            out.println("users now          : " + users.names);
        }
        try (var provider = JdbcStorage.builder(JdbcStorageConfig.custom()
                        .url("jdbc:sqlite:" + database)
                        .build())
                .build()) {
            var store = AgentPersistenceChatMemoryStore.of(provider); // a restart: new provider, same file
            Assistant assistant = assistant(store, users);
            out.println("> thanks (restart) : " + assistant.chat("user-42", "thanks"));
            var conversation = store.conversations().load("user-42");
            out.println("window (max 6)     : " + conversation.messages().size() + " messages, from "
                    + conversation.messages().get(0).role() + " '"
                    + conversation.messages().get(0).content() + "'");
            out.println("history            : " + conversation.history().size() + " messages, "
                    + conversation.history().stream()
                            .filter(m -> m.role() == Message.Role.TOOL_CALL)
                            .count()
                    + " tool call");
            var tools = RollbackToolRegistry.builder()
                    .registerRollback("createUser", users.deleteUser())
                    .build();
            var report = store.conversations().rollbackTo("user-42", checkpointBeforeTool, tools);
            out.println("rollback           : "
                    + report.toolRollback().performed().size() + " tool call undone, users now " + users.names
                    + ", window back to " + store.getMessages("user-42").size() + " messages");
        }
        return users;
    }

    private static Assistant assistant(AgentPersistenceChatMemoryStore store, Users users) {
        return AiServices.builder(Assistant.class)
                .chatModel(new ScriptedChatModel())
                .chatMemoryProvider(id -> MessageWindowChatMemory.builder()
                        .id(id)
                        .maxMessages(6)
                        .chatMemoryStore(store)
                        .build())
                .tools(users)
                .build();
    }
}
