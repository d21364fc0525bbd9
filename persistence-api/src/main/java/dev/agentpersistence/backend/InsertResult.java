package dev.agentpersistence.backend;

import java.util.List;
import java.util.Objects;

/**
 * What {@link StorageBackend#insert} did: stored the record, or found records of the same agent already holding its
 * version or its checkpoint id and left everything as it was; for a conditional insert
 * ({@link StorageBackend#insertAfter}) also: found that the agent's newest record is not the expected head, and stored
 * nothing.
 *
 * <p>{@code inserted == false} with no existing records and {@code staleHead == false} means the clashing records were
 * deleted between the attempt and the look-up; the shell then tries again.
 *
 * @param inserted whether the record is now stored
 * @param existing the records that hold the version or the id (at most two), when not inserted
 * @param staleHead whether a conditional insert found another newest record than the one it expected
 */
public record InsertResult(boolean inserted, List<StoredDocument> existing, boolean staleHead) {
    private static final InsertResult INSERTED = new InsertResult(true, List.of(), false);
    private static final InsertResult HEAD_MOVED = new InsertResult(false, List.of(), true);

    public InsertResult {
        existing = List.copyOf(Objects.requireNonNull(existing, "existing"));
        if (inserted && (!existing.isEmpty() || staleHead)) {
            throw new IllegalArgumentException("an inserted record has no existing records and a head that held");
        }
        if (staleHead && !existing.isEmpty()) {
            throw new IllegalArgumentException("a conditional insert refused for its head reports no clashing records");
        }
    }

    /** An insert that stored the record or met {@code existing}. */
    public InsertResult(boolean inserted, List<StoredDocument> existing) {
        this(inserted, existing, false);
    }

    /** The record was stored. */
    public static InsertResult stored() {
        return INSERTED;
    }

    /** The conditional insert stored nothing: the agent's newest record is not the one it expected. */
    public static InsertResult headMoved() {
        return HEAD_MOVED;
    }

    /** The record was not stored because of {@code existing} (empty: they were deleted meanwhile). */
    public static InsertResult clashedWith(List<StoredDocument> existing) {
        return new InsertResult(false, existing);
    }
}
