package dev.agentpersistence.memory;

import dev.agentpersistence.AgentNamespace;
import java.util.Objects;
import java.util.Optional;

/**
 * How a framework's ids (conversation, thread or session ids) become agent ids: a prefix followed by the id, in a
 * namespace ({@code "@" + namespace + "/" + prefix + id}) or, without one, as it is ({@code prefix + id}), refusing
 * then the ids reserved for namespaces ({@link AgentNamespace#isReserved}). The conversation store and the framework
 * adapters share it, so that one id maps to the same agent id everywhere. Immutable.
 */
public final class AgentIdMapping {
    private final String kind;
    private final String idName;
    private final AgentNamespace namespace;
    private final String prefix;

    private AgentIdMapping(String kind, String idName, AgentNamespace namespace, String prefix) {
        this.kind = kind;
        this.idName = idName;
        this.namespace = namespace;
        this.prefix = prefix;
    }

    /**
     * The mapping of the ids of {@code kind} (named so in messages, e.g. {@code "LangGraph4j thread"}), whose parameter
     * is {@code idName} (e.g. {@code "threadId"}).
     *
     * @param namespace the namespace of the agent ids; {@code null} for none
     * @param prefix what is put before each id; {@code null} for the default: empty in a namespace, else
     *     {@code prefixWithoutNamespace}
     * @param prefixWithoutNamespace the prefix of a mapping without a namespace when {@code prefix} is {@code null}
     */
    public static AgentIdMapping of(
            String kind, String idName, AgentNamespace namespace, String prefix, String prefixWithoutNamespace) {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(idName, "idName");
        Objects.requireNonNull(prefixWithoutNamespace, "prefixWithoutNamespace");
        String chosen = prefix != null ? prefix : namespace == null ? prefixWithoutNamespace : "";
        return new AgentIdMapping(kind, idName, namespace, chosen);
    }

    /**
     * The agent id {@code id} is stored under: the prefix followed by the id, in the namespace when there is one.
     *
     * @throws dev.agentpersistence.InvalidIdentifierException when the id is not a valid agent id, is too long for the
     *     namespace, or (without a namespace) starts with a prefix reserved for namespaces
     */
    public String agentId(String id) {
        Objects.requireNonNull(id, idName);
        String localId = prefix + id;
        return namespace == null
                ? AgentNamespace.requireUnreserved(localId, kind + " agent id")
                : namespace.agentId(localId, kind + " id");
    }

    /**
     * The id stored under {@code agentId}: empty when the agent is not one of this mapping (other namespace, prefix).
     */
    public Optional<String> idOf(String agentId) {
        Objects.requireNonNull(agentId, "agentId");
        Optional<String> local = namespace == null
                ? AgentNamespace.isReserved(agentId) ? Optional.empty() : Optional.of(agentId)
                : namespace.localId(agentId);
        return local.filter(id -> id.startsWith(prefix) && id.length() > prefix.length())
                .map(id -> id.substring(prefix.length()));
    }

    /** The namespace of the agent ids; empty when they carry none. */
    public Optional<AgentNamespace> namespace() {
        return Optional.ofNullable(namespace);
    }

    /** What is put before each id (in the namespace, or as the start of the agent id without one); may be empty. */
    public String prefix() {
        return prefix;
    }

    @Override
    public String toString() {
        return "AgentIdMapping[" + kind + (namespace == null ? "" : ", namespace=" + namespace) + ", prefix='" + prefix
                + "']";
    }
}
