package dev.agentpersistence.springai;

import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.memory.AgentIdMapping;
import dev.agentpersistence.memory.ConversationConflictException;
import dev.agentpersistence.memory.ConversationStore;
import dev.agentpersistence.memory.ReadThenReplace;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.Message;

/**
 * A Spring AI {@link ChatMemoryRepository} that keeps conversations in any agent-persistence storage provider (in
 * memory, files, SQLite, PostgreSQL, MariaDB, Redis, S3 or your own), through a {@link ConversationStore}.
 *
 * <h2>Saving</h2>
 *
 * {@link #saveAll} never deletes and re-inserts: it compares the list with the version of the conversation it was built
 * from, among those served to any thread ({@link ReadThenReplace}), keeps what is unchanged, evicts from the window
 * what the list dropped (as {@link MessageWindowChatMemory} does) and appends the new tail, all in one atomic save;
 * with incremental history only the new messages are written. Evicted messages stay in the conversation's stored
 * history. When another writer (thread, process) saved in between, the change is applied again to the conversation as
 * it is then, so concurrent writers never lose each other's messages; after
 * {@link ConversationStore#DEFAULT_MAX_CONFLICT_RETRIES} lost races it throws {@link ConversationConflictException}. A
 * list equal to the stored window writes nothing.
 *
 * <h2>Mapping</h2>
 *
 * Every Spring AI message type is read back equal to what was saved: text, metadata (its values with their Java types),
 * media (bytes, URI text or {@code URL}, MIME type, id, name), an assistant message's tool calls, a tool response
 * message's responses, and {@code null} texts and fields. An assistant message's tool calls are stored as
 * {@code TOOL_CALL} messages after it and each tool response as a {@code TOOL_RESULT} message, so
 * {@link dev.agentpersistence.RollbackToolRegistry} sees them, tool calls stay paired with their results, and a window
 * never starts with an orphaned tool result ({@link dev.agentpersistence.memory.WindowRule}). Metadata values other
 * than strings, numbers, booleans, lists and maps are stored as their JSON form (Jackson) and read back as plain JSON
 * values.
 *
 * <h2>Agent ids</h2>
 *
 * Conversation {@code id} is stored as agent {@code @spring-ai/<prefix><id>}, in the namespace {@link #NAMESPACE}
 * (prefix empty unless set), so that no conversation id can name a pipeline run, a tool journal or another framework's
 * agent. A store written before namespaces (agent {@value #DEFAULT_PREFIX}{@code <id>}) stays readable and writable
 * with {@link Builder#withoutNamespace()}. Like Spring AI's own repositories, a {@code null} or empty conversation id
 * is refused with {@link IllegalArgumentException}.
 *
 * <p>Thread-safe. It does not own the provider: close it yourself.
 */
public final class AgentPersistenceChatMemoryRepository implements ChatMemoryRepository {
    /** The namespace of Spring AI conversations: agent id {@code @spring-ai/<prefix><id>}. */
    public static final AgentNamespace NAMESPACE = AgentNamespace.of("spring-ai");

    /**
     * The agent id prefix of a repository {@linkplain Builder#withoutNamespace() without a namespace}, unless
     * {@link Builder#conversationIdPrefix(String)} says otherwise: the form of versions before namespaces.
     */
    public static final String DEFAULT_PREFIX = "spring-ai:";

    private final ConversationStore store;
    private final ReadThenReplace reads;
    private final String prefix;

    private AgentPersistenceChatMemoryRepository(Builder builder) {
        var ids =
                AgentIdMapping.of("conversation", "conversationId", builder.namespace, builder.prefix, DEFAULT_PREFIX);
        this.prefix = ids.prefix();
        var conversations = ConversationStore.builder(builder.provider)
                .agentIdPrefix(prefix)
                .clock(builder.clock)
                .maxConflictRetries(builder.maxConflictRetries)
                .observationRegistry(builder.observations);
        ids.namespace().ifPresent(conversations::namespace);
        this.store = conversations.build();
        this.reads = ReadThenReplace.over(store);
    }

    /** A repository over {@code provider} in the namespace {@link #NAMESPACE}. */
    public static AgentPersistenceChatMemoryRepository of(PersistenceStorageProvider<?> provider) {
        return builder(provider).build();
    }

    /** A builder over {@code provider}. */
    public static Builder builder(PersistenceStorageProvider<?> provider) {
        return new Builder(provider);
    }

    /**
     * The ids of the stored conversations of this repository (its namespace and prefix), sorted.
     *
     * @throws UnsupportedOperationException when the provider cannot list its agents
     */
    @Override
    public List<String> findConversationIds() {
        return store.storage().listAgents().stream()
                .map(store::conversationIdOf)
                .flatMap(java.util.Optional::stream)
                .toList();
    }

    /** The conversation's window, as Spring AI messages; empty when nothing is stored. */
    @Override
    public List<Message> findByConversationId(String conversationId) {
        requireConversationId(conversationId);
        return FromStoredMessages.of(conversationId, reads.read(conversationId));
    }

    /**
     * Makes {@code messages} the conversation's window in one atomic save, appending only what is new.
     *
     * @throws ChatMemoryMappingException when a message cannot be stored (nothing is written)
     * @throws ConversationConflictException when other writers won every attempt
     */
    @Override
    public void saveAll(String conversationId, List<Message> messages) {
        requireConversationId(conversationId);
        if (messages == null) {
            throw new IllegalArgumentException("messages of conversation '" + conversationId + "' must not be null");
        }
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i) == null) {
                throw new IllegalArgumentException(
                        "message " + i + " of conversation '" + conversationId + "' is null");
            }
        }
        reads.replace(conversationId, ToStoredMessages.of(conversationId, messages));
    }

    /**
     * Deletes every stored checkpoint of the conversation, its history included. With a provider that cannot delete
     * (one that implements only the three required methods of the SPI), the conversation's window is emptied instead,
     * so it reads empty from now on; its history stays stored.
     */
    @Override
    public void deleteByConversationId(String conversationId) {
        requireConversationId(conversationId);
        try {
            store.delete(conversationId);
        } catch (UnsupportedOperationException e) {
            store.clear(conversationId);
        }
        reads.forget(conversationId);
    }

    /**
     * The agent id the conversation is stored under, for {@code AgentPersistence} (checkpoints, rollback of the tool
     * calls made since one) and the provider's own calls.
     */
    public String agentId(String conversationId) {
        return store.agentId(conversationId);
    }

    /** The conversation store underneath, for its whole history ({@code store().load(id).history()}). */
    public ConversationStore store() {
        return store;
    }

    @Override
    public String toString() {
        return "AgentPersistenceChatMemoryRepository[prefix=" + prefix + ", " + store + "]";
    }

    /** Spring AI's own repositories refuse a null or empty conversation id with an IllegalArgumentException. */
    private static void requireConversationId(String conversationId) {
        if (conversationId == null || conversationId.isEmpty()) {
            throw new IllegalArgumentException("conversationId cannot be null or empty");
        }
    }

    /** Builds {@link AgentPersistenceChatMemoryRepository}s. */
    public static final class Builder {
        private final PersistenceStorageProvider<?> provider;
        private String prefix;
        private AgentNamespace namespace = NAMESPACE;
        private Clock clock = Clock.systemUTC();
        private int maxConflictRetries = ConversationStore.DEFAULT_MAX_CONFLICT_RETRIES;
        private ObservationRegistry observations = ObservationRegistry.NOOP;

        private Builder(PersistenceStorageProvider<?> provider) {
            this.provider = Objects.requireNonNull(provider, "provider");
        }

        /**
         * Put in front of every conversation id to make its local id in the namespace (or, without a namespace, its
         * agent id); may be empty. Default: empty, and {@value #DEFAULT_PREFIX} without a namespace.
         */
        public Builder conversationIdPrefix(String conversationIdPrefix) {
            this.prefix = Objects.requireNonNull(conversationIdPrefix, "conversationIdPrefix");
            return this;
        }

        /** Stores conversations in {@code namespace} instead of {@link #NAMESPACE}. */
        public Builder namespace(AgentNamespace namespace) {
            this.namespace = Objects.requireNonNull(namespace, "namespace");
            return this;
        }

        /**
         * Stores conversations as versions before namespaces did, agent id {@code prefix + id} (prefix
         * {@value #DEFAULT_PREFIX} unless set), to keep reading and writing a store they wrote. Ids reserved for
         * namespaces (starting with {@code @}) are then refused.
         */
        public Builder withoutNamespace() {
            this.namespace = null;
            return this;
        }

        /**
         * Where the chat-memory operations are observed (default none): one observation per load, append, replacement,
         * clear and deletion ({@code ConversationStore.Builder#observationRegistry}).
         */
        public Builder observationRegistry(ObservationRegistry observations) {
            this.observations = Objects.requireNonNull(observations, "observations");
            return this;
        }

        /** The clock checkpoints are stamped with (default the UTC system clock). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** How often a save is applied again after another writer saved first. */
        public Builder maxConflictRetries(int retries) {
            this.maxConflictRetries = retries;
            return this;
        }

        /** The repository. */
        public AgentPersistenceChatMemoryRepository build() {
            return new AgentPersistenceChatMemoryRepository(this);
        }
    }
}
