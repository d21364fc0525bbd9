package dev.agentpersistence;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A kind of agent with its own id space in a store: pipeline runs, their tool journals, each framework's chat memories,
 * graph threads, agent sessions. The stored agent id is {@code "@" + name + "/" + localId}, so no id of one kind can
 * name an agent of another, and an id given to the facade without a namespace cannot name either: such ids may not
 * start with {@value #MARKER} (nor with the journal prefix of earlier versions, {@value #LEGACY_JOURNAL_PREFIX}).
 *
 * <p>The mapping is injective: two different local ids of one namespace give two different stored ids, and a stored id
 * belongs to exactly one namespace or to none. A local id follows {@link Identifiers} and is at most
 * {@link #maxLocalLength()} characters, so that the stored id is too.
 *
 * @param name lower-case letters, digits, {@code .} and {@code -}; at most {@value #MAX_NAME_LENGTH} characters
 */
public record AgentNamespace(String name) {
    /** The first character of every namespaced agent id. */
    public static final String MARKER = "@";

    /** The prefix of tool journals written before namespaces; still read, never written. */
    public static final String LEGACY_JOURNAL_PREFIX = "__journal__/";

    /** Longest namespace name. */
    public static final int MAX_NAME_LENGTH = 32;

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9.-]*");

    /** Pipeline runs ({@code pipeline-core}). */
    public static final AgentNamespace PIPELINE_RUNS = new AgentNamespace("run");

    /** The tool journals of pipeline runs: the journal of run {@code r} is {@code TOOL_JOURNALS.agentId(r)}. */
    public static final AgentNamespace TOOL_JOURNALS = new AgentNamespace("journal");

    /** Validates the name. */
    public AgentNamespace {
        Objects.requireNonNull(name, "name");
        if (name.length() > MAX_NAME_LENGTH || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("namespace name '" + name + "' must be 1 to " + MAX_NAME_LENGTH
                    + " characters of a-z, 0-9, '.' and '-', starting with a letter or digit");
        }
    }

    /** The namespace called {@code name}. */
    public static AgentNamespace of(String name) {
        return new AgentNamespace(name);
    }

    /** What every stored id of this namespace starts with. */
    public String prefix() {
        return MARKER + name + "/";
    }

    /** Longest local id this namespace accepts. */
    public int maxLocalLength() {
        return Identifiers.MAX_LENGTH - prefix().length();
    }

    /**
     * The stored agent id of {@code localId} in this namespace.
     *
     * @param what what the id names, for the message ("runId", "memoryId")
     * @throws InvalidIdentifierException when {@code localId} breaks the rules of {@link Identifiers} or is longer than
     *     {@link #maxLocalLength()}
     */
    public String agentId(String localId, String what) {
        Identifiers.requireValid(localId, what);
        if (localId.length() > maxLocalLength()) {
            throw new InvalidIdentifierException(what + " is " + localId.length() + " characters long; at most "
                    + maxLocalLength() + " are allowed for " + describe() + " (starts with '" + localId.substring(0, 32)
                    + "…')");
        }
        return prefix() + localId;
    }

    /** As {@link #agentId(String, String)}, naming the id {@code "id"} in messages. */
    public String agentId(String localId) {
        return agentId(localId, "id");
    }

    /** The local id of {@code agentId} when it is a stored id of this namespace. */
    public Optional<String> localId(String agentId) {
        return agentId != null && agentId.startsWith(prefix()) && agentId.length() > prefix().length()
                ? Optional.of(agentId.substring(prefix().length()))
                : Optional.empty();
    }

    /** Whether {@code agentId} is a stored id of this namespace. */
    public boolean contains(String agentId) {
        return localId(agentId).isPresent();
    }

    /**
     * The namespace a stored agent id belongs to: empty for an id given without one. A tool journal written before
     * namespaces ({@value #LEGACY_JOURNAL_PREFIX}) belongs to {@link #TOOL_JOURNALS}.
     */
    public static Optional<AgentNamespace> containing(String agentId) {
        Objects.requireNonNull(agentId, "agentId");
        if (agentId.startsWith(LEGACY_JOURNAL_PREFIX)) {
            return Optional.of(TOOL_JOURNALS);
        }
        if (!agentId.startsWith(MARKER)) {
            return Optional.empty();
        }
        int slash = agentId.indexOf('/');
        if (slash < 2 || slash == agentId.length() - 1) {
            return Optional.empty();
        }
        String name = agentId.substring(1, slash);
        return NAME.matcher(name).matches() && name.length() <= MAX_NAME_LENGTH
                ? Optional.of(new AgentNamespace(name))
                : Optional.empty();
    }

    /** Whether {@code agentId} is reserved for namespaces: only a namespace may write it. */
    public static boolean isReserved(String agentId) {
        return agentId.startsWith(MARKER) || agentId.startsWith(LEGACY_JOURNAL_PREFIX);
    }

    /**
     * Returns {@code agentId} when it is valid and not reserved for namespaces.
     *
     * @param what what the id names, for the message
     * @throws InvalidIdentifierException when it breaks the rules of {@link Identifiers} or starts with
     *     {@value #MARKER} or {@value #LEGACY_JOURNAL_PREFIX}
     */
    public static String requireUnreserved(String agentId, String what) {
        Identifiers.requireValid(agentId, what);
        if (isReserved(agentId)) {
            throw new InvalidIdentifierException(what + " '" + agentId + "' starts with '"
                    + (agentId.startsWith(MARKER) ? MARKER : LEGACY_JOURNAL_PREFIX)
                    + "', which is reserved for the agents of a namespace (pipeline runs, journals, chat memories); "
                    + "write it through its namespace, or choose an id that does not start with it");
        }
        return agentId;
    }

    private String describe() {
        return "namespace '" + name + "'";
    }

    @Override
    public String toString() {
        return name;
    }
}
