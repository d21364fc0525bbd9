package dev.agentpersistence.cli.internal;

import dev.agentpersistence.CheckpointFilter;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Walks an agent's records newest first, one bounded page at a time, with the filter fields every provider pushes down
 * ({@code maxVersion} and {@code limit}, "the newest N"): memory stays bounded however many checkpoints an agent has.
 */
public final class VersionPages {
    /** Records per page unless a command asks otherwise. */
    public static final int DEFAULT_PAGE = 200;

    private VersionPages() {}

    /** Receives one page, ascending by version; returns whether to go on. */
    @FunctionalInterface
    public interface PageHandler<T> {
        boolean handle(List<T> page);
    }

    /**
     * Queries pages of {@code base} narrowed by version, newest page first, until a page is short, reaches version 0 or
     * {@code handler} stops.
     *
     * @param query runs one filter; returns matches ascending by version (the newest {@code limit})
     * @param version the version of a record
     */
    public static <T> void newestFirst(
            CheckpointFilter base,
            int pageSize,
            Function<CheckpointFilter, List<T>> query,
            ToLongFunction<T> version,
            PageHandler<T> handler) {
        Long below = base.maxVersion();
        while (true) {
            CheckpointFilter page =
                    base.toBuilder().maxVersion(below).limit(pageSize).build();
            List<T> found = query.apply(page);
            if (found.isEmpty() || !handler.handle(found)) {
                return;
            }
            long lowest = version.applyAsLong(found.get(0));
            if (found.size() < pageSize || lowest <= 0) {
                return;
            }
            below = lowest - 1;
        }
    }
}
