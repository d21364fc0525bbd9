package dev.agentpersistence.langchain4j;

import dev.agentpersistence.memory.ConversationStore;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.tool.ToolExecution;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Records the tool executions of an AI Service as {@code TOOL_CALL} messages (each followed by its result), so
 * {@link ConversationStore#rollbackTo} can undo them with a {@link dev.agentpersistence.RollbackToolRegistry}. For AI
 * Services without a chat memory over {@link AgentPersistenceChatMemoryStore}, which records the calls itself; give it
 * a conversation of its own otherwise, or every call is recorded twice:
 *
 * <pre>{@code
 * var recorder = ToolExecutionRecorder.into(conversations, "order-agent");
 * Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).tools(orders)
 *         .afterToolExecution(recorder).build();
 * }</pre>
 *
 * A failed execution is not recorded: there is nothing to undo. Each execution is one atomic append.
 */
public final class ToolExecutionRecorder implements Consumer<ToolExecution> {
    private final ConversationStore conversations;
    private final String conversationId;

    private ToolExecutionRecorder(ConversationStore conversations, String conversationId) {
        this.conversations = conversations;
        this.conversationId = conversationId;
    }

    /** A recorder appending to the conversation {@code conversationId} of {@code conversations}. */
    public static ToolExecutionRecorder into(ConversationStore conversations, String conversationId) {
        Objects.requireNonNull(conversations, "conversations");
        conversations.agentId(Objects.requireNonNull(conversationId, "conversationId")); // validates the id
        return new ToolExecutionRecorder(conversations, conversationId);
    }

    /** Appends the executed call and its result, unless the execution failed. */
    @Override
    public void accept(ToolExecution execution) {
        Objects.requireNonNull(execution, "execution");
        if (execution.hasFailed()) {
            return;
        }
        var request = execution.request();
        conversations.append(
                conversationId,
                LangChain4jMessages.toMessages(List.of(
                        AiMessage.from(request),
                        ToolExecutionResultMessage.from(request, Objects.requireNonNullElse(execution.result(), "")))));
    }

    @Override
    public String toString() {
        return "ToolExecutionRecorder[" + conversationId + " in " + conversations + "]";
    }
}
