package dev.agentpersistence.langchain4j;

import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.memory.ConversationStore;
import dev.agentpersistence.memory.ReadThenReplace;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import io.micrometer.observation.ObservationRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A LangChain4j {@link ChatMemoryStore} over any agent-persistence provider, for {@code MessageWindowChatMemory},
 * {@code TokenWindowChatMemory} and AI Services.
 *
 * <p>Each memory id is one conversation of a {@link ConversationStore} (its id is {@code String.valueOf(memoryId)}),
 * stored in the namespace {@link #NAMESPACE} ({@code @langchain4j/<memory id>}), so that no memory id can name a
 * pipeline run, a tool journal or another framework's agent. A store written before namespaces (agent id = memory id)
 * stays readable and writable with {@link Builder#withoutNamespace()}. {@link #updateMessages} stores only what is new:
 * the messages the memory still holds are recognised in the stored window and stay where they are, evicted ones leave
 * the window but stay in the history, and the new tail is appended, in one atomic save (with incremental history, only
 * the new messages are written). Concurrent updates of one memory id never lose a message: each update applies to the
 * version it was built from, among those served to any thread ({@link ReadThenReplace}), and a save that lost a race is
 * applied again to the reloaded conversation. Every LangChain4j message type reads back equal
 * ({@link LangChain4jMessages}); tool execution requests are stored as {@code TOOL_CALL} messages, so the tool calls an
 * AI Service executes can be undone with {@link ConversationStore#rollbackTo}.
 *
 * <p>{@link #deleteMessages} (what {@code ChatMemory.clear()} calls) deletes the conversation's checkpoints; built with
 * {@link #keepingHistory(ConversationStore)} it only empties the window. Thread-safe.
 */
public final class AgentPersistenceChatMemoryStore implements ChatMemoryStore {
    /** The namespace of LangChain4j chat memories: agent id {@code @langchain4j/<memory id>}. */
    public static final AgentNamespace NAMESPACE = AgentNamespace.of("langchain4j");

    private final ReadThenReplace conversations;
    private final boolean keepHistoryOnDelete;

    private AgentPersistenceChatMemoryStore(ConversationStore store, boolean keepHistoryOnDelete) {
        this.conversations = ReadThenReplace.over(store);
        this.keepHistoryOnDelete = keepHistoryOnDelete;
    }

    /**
     * A store keeping conversations in {@code storage} in the namespace {@link #NAMESPACE}, with the default
     * conversation settings.
     */
    public static AgentPersistenceChatMemoryStore of(PersistenceStorageProvider<?> storage) {
        return builder(storage).build();
    }

    /** A builder over {@code storage}. */
    public static Builder builder(PersistenceStorageProvider<?> storage) {
        return new Builder(Objects.requireNonNull(storage, "storage"));
    }

    /**
     * A store over {@code conversations}, whose agent ids are what that store makes of them (its namespace and prefix);
     * {@link #deleteMessages} deletes a conversation's checkpoints.
     */
    public static AgentPersistenceChatMemoryStore of(ConversationStore conversations) {
        return new AgentPersistenceChatMemoryStore(Objects.requireNonNull(conversations, "conversations"), false);
    }

    /** A store over {@code conversations} whose {@link #deleteMessages} empties the window and keeps the history. */
    public static AgentPersistenceChatMemoryStore keepingHistory(ConversationStore conversations) {
        return new AgentPersistenceChatMemoryStore(Objects.requireNonNull(conversations, "conversations"), true);
    }

    /** The window of the conversation, as LangChain4j messages; empty for an unknown memory id. */
    @Override
    public List<ChatMessage> getMessages(Object memoryId) {
        return new ArrayList<>(LangChain4jMessages.fromMessages(conversations.read(conversationId(memoryId))));
    }

    /**
     * Makes {@code messages} the conversation's window, storing only what is new.
     *
     * @throws UnsupportedMessageException when a message would not read back equal; nothing is written
     * @throws dev.agentpersistence.memory.ConversationConflictException when other writers won every attempt
     */
    @Override
    public void updateMessages(Object memoryId, List<ChatMessage> messages) {
        Objects.requireNonNull(messages, "messages");
        conversations.replace(conversationId(memoryId), LangChain4jMessages.toMessages(messages));
    }

    /** Deletes the conversation, or empties its window when built {@link #keepingHistory keeping history}. */
    @Override
    public void deleteMessages(Object memoryId) {
        String conversationId = conversationId(memoryId);
        conversations.forget(conversationId);
        if (keepHistoryOnDelete) {
            conversations.store().clear(conversationId);
        } else {
            conversations.store().delete(conversationId);
        }
    }

    /** The conversations underneath, for history, rollbacks and checkpoints. */
    public ConversationStore conversations() {
        return conversations.store();
    }

    /** The conversation id of a memory id: its {@code String.valueOf}. */
    public static String conversationId(Object memoryId) {
        return String.valueOf(Objects.requireNonNull(memoryId, "memoryId"));
    }

    @Override
    public String toString() {
        return "AgentPersistenceChatMemoryStore[" + conversations.store()
                + (keepHistoryOnDelete ? ", keeping history" : "") + "]";
    }

    /** Builds {@link AgentPersistenceChatMemoryStore}s over a storage provider. */
    public static final class Builder {
        private final ConversationStore.Builder conversations;
        private boolean keepHistoryOnDelete;

        private Builder(PersistenceStorageProvider<?> storage) {
            this.conversations = ConversationStore.builder(storage).namespace(NAMESPACE);
        }

        /**
         * Where the chat-memory operations are observed (default none): one observation per load, append, replacement,
         * clear and deletion ({@code ConversationStore.Builder#observationRegistry}).
         */
        public Builder observationRegistry(ObservationRegistry observations) {
            conversations.observationRegistry(Objects.requireNonNull(observations, "observations"));
            return this;
        }

        /** Stores memories in {@code namespace} instead of {@link #NAMESPACE}. */
        public Builder namespace(AgentNamespace namespace) {
            conversations.namespace(namespace);
            return this;
        }

        /**
         * Stores memories as versions before namespaces did, agent id = memory id, to keep reading and writing a store
         * they wrote. Memory ids reserved for namespaces (starting with {@code @}) are then refused.
         */
        public Builder withoutNamespace() {
            conversations.withoutNamespace();
            return this;
        }

        /** {@link #deleteMessages} empties the window and keeps the history (default: deletes the conversation). */
        public Builder keepingHistory() {
            this.keepHistoryOnDelete = true;
            return this;
        }

        /** The clock checkpoints are stamped with; default UTC system clock. */
        public Builder clock(java.time.Clock clock) {
            conversations.clock(clock);
            return this;
        }

        /** The store. */
        public AgentPersistenceChatMemoryStore build() {
            return new AgentPersistenceChatMemoryStore(conversations.build(), keepHistoryOnDelete);
        }
    }
}
