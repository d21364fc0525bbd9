package dev.agentpersistence.pipeline.internal;

import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.Identifiers;
import dev.agentpersistence.InvalidIdentifierException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Where a run lives: run {@code r} is stored as agent {@code AgentNamespace.PIPELINE_RUNS.agentId(r)} and its tool
 * journal as {@code AgentNamespace.TOOL_JOURNALS.agentId(r)}, both injective, so no run id can name another run's
 * checkpoints or journal. Runs written before namespaces are stored under the raw run id, with the journal
 * {@value AgentNamespace#LEGACY_JOURNAL_PREFIX} + run id (+ the SHA-256 of the run id when that was too long); they are
 * still found and continued where they are.
 */
public final class RunIds {
    /** Longest run id: the journal's stored id must be a valid agent id. */
    public static final int MAX_LENGTH = AgentNamespace.TOOL_JOURNALS.maxLocalLength();

    private RunIds() {}

    /**
     * Returns {@code runId} when it is a valid run id.
     *
     * @throws InvalidIdentifierException when it breaks the rules of {@link Identifiers} or is longer than
     *     {@link #MAX_LENGTH}
     */
    public static String requireValid(String runId, String what) {
        Identifiers.requireValid(runId, what);
        if (runId.length() > MAX_LENGTH) {
            throw new InvalidIdentifierException(
                    what + " is " + runId.length() + " characters long; a run id has at most "
                            + MAX_LENGTH + " so that its tool journal ('" + AgentNamespace.TOOL_JOURNALS.prefix()
                            + "' + run id) is a valid agent id (starts with '" + runId.substring(0, 32) + "…')");
        }
        return runId;
    }

    /** The stored agent id of run {@code runId}. */
    public static String storedId(String runId) {
        return AgentNamespace.PIPELINE_RUNS.agentId(requireValid(runId, "runId"), "runId");
    }

    /** The stored agent id of the tool journal of run {@code runId}. */
    public static String journalId(String runId) {
        return AgentNamespace.TOOL_JOURNALS.agentId(requireValid(runId, "runId"), "runId");
    }

    /**
     * The raw id an earlier version stored run {@code runId} under: the run id itself, unless it is reserved for
     * namespaces (such runs could not be continued by a facade without namespace, so they are not looked for).
     */
    public static Optional<String> legacyId(String runId) {
        return AgentNamespace.isReserved(runId) ? Optional.empty() : Optional.of(runId);
    }

    /** The journal an earlier version kept for a run stored under its raw id. */
    public static String legacyJournalId(String runId) {
        String id = AgentNamespace.LEGACY_JOURNAL_PREFIX + runId;
        return id.length() <= Identifiers.MAX_LENGTH ? id : AgentNamespace.LEGACY_JOURNAL_PREFIX + sha256(runId);
    }

    /**
     * The run id of a stored agent id that may hold a run: a stored id of {@link AgentNamespace#PIPELINE_RUNS}, or an
     * id without namespace (a run of an earlier version, or any other agent).
     */
    public static Optional<String> runIdOf(String agentId) {
        Optional<String> local = AgentNamespace.PIPELINE_RUNS.localId(agentId);
        if (local.isPresent()) {
            return local;
        }
        return AgentNamespace.isReserved(agentId) ? Optional.empty() : Optional.of(agentId);
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
