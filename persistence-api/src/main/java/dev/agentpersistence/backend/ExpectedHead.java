package dev.agentpersistence.backend;

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
     * Whether {@code expected} describes the newest record, given by its id and version ({@code null} id: the agent has
     * no record); an empty {@code expected} stands for an agent without records.
     */
    public static boolean holds(Optional<ExpectedHead> expected, String newestId, long newestVersion) {
        if (expected.isEmpty()) {
            return newestId == null;
        }
        return newestId != null
                && expected.get().version() == newestVersion
                && expected.get().checkpointId().equals(newestId);
    }

    /** The same check against a stored document, empty when the agent has no record. */
    public static boolean holds(Optional<ExpectedHead> expected, Optional<StoredDocument> newest) {
        return newest.isEmpty()
                ? expected.isEmpty()
                : holds(expected, newest.get().checkpointId(), newest.get().version());
    }

    @Override
    public String toString() {
        return "version " + version + " (checkpoint '" + checkpointId + "')";
    }
}
