package dev.agentpersistence.backend;

import dev.agentpersistence.internal.HeadCondition;
import java.util.Objects;
import java.util.Optional;

/**
 * The record a conditional insert ({@link StorageBackend#insertAfter}) expects to be its agent's newest: the head the
 * writer read. The insert stores nothing when the newest record is another one.
 *
 * @param checkpointId the id of the expected newest record
 * @param version its version
 */
public record ExpectedHead(String checkpointId, long version) {
    public ExpectedHead {
        Objects.requireNonNull(checkpointId, "checkpointId");
    }

    /**
     * Whether the agent's newest record, filed under {@code checkpointId} ({@code null}: by version only, then the
     * version alone decides) and {@code version}, is this head.
     */
    public boolean isAt(String checkpointId, long version) {
        return this.version == version && (checkpointId == null || this.checkpointId.equals(checkpointId));
    }

    /**
     * Whether an agent that has a newest record, filed under {@code newestId} ({@code null}: by version only) and
     * {@code newestVersion}, is at {@code expected}; an empty {@code expected} stands for an agent without records, so
     * it never holds here.
     */
    public static boolean holds(Optional<ExpectedHead> expected, String newestId, long newestVersion) {
        return expected.isPresent() && expected.get().isAt(newestId, newestVersion);
    }

    /** Whether {@code newest} (empty: the agent has no record) is at {@code expected}. */
    public static boolean holds(Optional<ExpectedHead> expected, Optional<StoredDocument> newest) {
        return newest.isEmpty()
                ? expected.isEmpty()
                : holds(expected, newest.get().checkpointId(), newest.get().version());
    }

    @Override
    public String toString() {
        return HeadCondition.describe(checkpointId, version);
    }
}
