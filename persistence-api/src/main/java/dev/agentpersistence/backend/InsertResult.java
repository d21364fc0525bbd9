package dev.agentpersistence.backend;

import java.util.List;
import java.util.Objects;

/**
 * What {@link StorageBackend#insert} did: stored the record, or found records of the same agent already holding its
 * version or its checkpoint id and left everything as it was.
 *
 * <p>{@code inserted == false} with no existing records means the clashing records were deleted between the attempt and
 * the look-up; the shell then tries again.
 *
 * @param inserted whether the record is now stored
 * @param existing the records that hold the version or the id (at most two), when not inserted
 */
public record InsertResult(boolean inserted, List<StoredDocument> existing) {
    private static final InsertResult INSERTED = new InsertResult(true, List.of());

    public InsertResult {
        existing = List.copyOf(Objects.requireNonNull(existing, "existing"));
        if (inserted && !existing.isEmpty()) {
            throw new IllegalArgumentException("an inserted record has no existing records");
        }
    }

    /** The record was stored. */
    public static InsertResult stored() {
        return INSERTED;
    }

    /** The record was not stored because of {@code existing} (empty: they were deleted meanwhile). */
    public static InsertResult clashedWith(List<StoredDocument> existing) {
        return new InsertResult(false, existing);
    }
}
