package dev.agentpersistence.codec;

import dev.agentpersistence.CorruptCheckpointException;
import java.util.Objects;

/**
 * Where a stored document was read from, so a decoding error can name it and the decoder can check the document really
 * belongs there.
 *
 * @param agentId the agent the storage layout filed the document under
 * @param checkpointId the checkpoint id the layout knows, or {@code null} when it does not
 * @param description a path, table row, object key or Redis key, for messages
 */
public record CheckpointLocation(String agentId, String checkpointId, String description) {
    public CheckpointLocation {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(description, "description");
    }

    /** A {@link CorruptCheckpointException} naming this location. */
    CorruptCheckpointException corrupt(String problem, Throwable cause) {
        return new CorruptCheckpointException(agentId, checkpointId, description, problem, cause);
    }
}
