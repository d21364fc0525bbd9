package dev.agentpersistence.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Identifiers;
import dev.agentpersistence.backend.HistorySegmentStore;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Argument checks and save rules shared by every provider, so that all of them word their errors the same way. Custom
 * providers are welcome to use them.
 */
public final class StorageChecks {
    private StorageChecks() {}

    /** Validates an agent id argument. */
    public static String requireAgentId(String agentId) {
        return Identifiers.requireValid(agentId, "agentId");
    }

    /** Validates a checkpoint id argument. */
    public static String requireCheckpointId(String checkpointId) {
        return Identifiers.requireValid(checkpointId, "checkpointId");
    }

    /** Validates a history segment id argument ({@link HistorySegmentStore}). */
    public static String requireSegmentId(String segmentId) {
        return Identifiers.requireValid(segmentId, "segmentId");
    }

    /**
     * Validates the arguments of {@code saveCheckpoint}, including {@link #requireWellFormedAttributes}.
     *
     * @throws IllegalArgumentException when the checkpoint belongs to another agent, or its node id or metadata holds
     *     an unpaired surrogate
     */
    public static void requireSaveArguments(String agentId, AgentCheckpoint checkpoint) {
        requireAgentId(agentId);
        Objects.requireNonNull(checkpoint, "checkpoint");
        if (!agentId.equals(checkpoint.agentId())) {
            throw new IllegalArgumentException("Checkpoint '" + checkpoint.checkpointId() + "' belongs to agent '"
                    + checkpoint.agentId() + "' but was saved under agent '" + agentId + "'");
        }
        requireWellFormedAttributes(agentId, checkpoint);
    }

    /**
     * Refuses a checkpoint whose filterable text — node id, metadata keys and values — holds an unpaired surrogate
     * (half an emoji). Those fields are stored as text by the backends (SQL columns, Redis attribute records), where
     * such a character becomes {@code ?} or breaks every filter of the agent; ids are refused earlier by
     * {@link Identifiers}. Message contents and state are stored in the JSON document, which keeps them exactly, and
     * are not checked.
     *
     * @throws IllegalArgumentException naming the field, the checkpoint and the index of the surrogate
     */
    public static void requireWellFormedAttributes(String agentId, AgentCheckpoint checkpoint) {
        Supplier<String> of = () -> " of checkpoint '" + checkpoint.checkpointId() + "' of agent '" + agentId + "'";
        requireWellFormed(checkpoint.nodeId(), () -> "nodeId" + of.get());
        requireWellFormedMetadata(checkpoint.metadata(), "metadata", of);
    }

    /**
     * Refuses a filter whose node id or metadata holds an unpaired surrogate: no stored checkpoint can hold one, and
     * some backends would match it against {@code ?}.
     *
     * @throws IllegalArgumentException naming the field and the index of the surrogate
     */
    public static void requireWellFormedFilter(CheckpointFilter filter) {
        requireWellFormed(filter.nodeId(), () -> "filter nodeId");
        requireWellFormedMetadata(filter.metadata(), "filter metadata", () -> "");
    }

    private static void requireWellFormedMetadata(Map<String, String> metadata, String what, Supplier<String> of) {
        metadata.forEach((key, value) -> {
            requireWellFormed(key, () -> what + " key '" + printable(key) + "'" + of.get());
            requireWellFormed(value, () -> what + " value of key '" + printable(key) + "'" + of.get());
        });
    }

    /**
     * Refuses {@code text} when it holds an unpaired surrogate.
     *
     * @param what the field, for the message ("nodeId of checkpoint 'c' of agent 'a'")
     * @throws IllegalArgumentException naming {@code what} and the index of the surrogate
     */
    public static void requireWellFormed(String text, String what) {
        requireWellFormed(text, () -> what);
    }

    /**
     * As {@link #requireWellFormed(String, String)}, describing the field only when it is refused (for checks on every
     * save, which should not build a message each time).
     */
    public static void requireWellFormed(String text, Supplier<String> what) {
        int index = text == null ? -1 : Identifiers.unpairedSurrogate(text);
        if (index >= 0) {
            throw new IllegalArgumentException(what.get() + " contains an unpaired surrogate U+"
                    + String.format("%04X", (int) text.charAt(index)) + " at index " + index
                    + " (half of a character such as an emoji); it is stored as text and must hold whole characters");
        }
    }

    /**
     * {@code text} with each unpaired surrogate written as a backslash, u and four hex digits, so a message can quote
     * it.
     */
    private static String printable(String text) {
        var out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                out.append(String.format("\\u%04X", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * Decides a save that met an existing checkpoint at the same version or id: returns normally when both have the
     * same content (the save is a no-op; JSON values compare by their JSON text), else throws.
     *
     * @throws CheckpointConflictException when the contents differ
     */
    public static void requireIdentical(String agentId, AgentCheckpoint incoming, AgentCheckpoint stored) {
        if (!CheckpointContent.same(incoming, stored)) {
            throw CheckpointConflictException.of(agentId, incoming, stored);
        }
    }

    /** Throws {@link IllegalStateException} when {@code closed}. */
    public static void requireOpen(boolean closed, String providerName) {
        if (closed) {
            throw new IllegalStateException(providerName + " is closed");
        }
    }
}
