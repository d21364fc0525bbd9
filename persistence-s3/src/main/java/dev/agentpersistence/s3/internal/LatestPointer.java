package dev.agentpersistence.s3.internal;

import dev.agentpersistence.PersistenceException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's latest pointer {@code P/l/A}, UTF-8 text {@code "1\n<version>"}: a version at or above every committed
 * body, so that "latest" is two GETs (pointer, body) instead of a listing, whose cost grows with the number of keys on
 * some stores.
 *
 * <p>Invariant: a save raises the pointer to its version <em>before</em> writing its body, and again (a GET, normally)
 * after it. Raising is a compare-and-swap on the pointer's ETag ({@code If-Match}, or {@code If-None-Match: *} to
 * create it) that only ever moves it up, so concurrent writers leave it at the highest of their versions. Hence when
 * the pointer names version {@code V} and the body of {@code V} exists, no committed body is newer; when that body is
 * missing (a save in flight or cut before its body, a deletion) or the pointer is missing or unreadable, readers list
 * instead. The pointer is never lowered: only {@code deleteCheckpoints} removes it, and a pointer created where there
 * was none starts from the newest listed body, so bodies stored without a pointer (by earlier versions of this
 * provider) count. The second raise after the body covers a pointer removed by a concurrent {@code deleteCheckpoints}
 * while the body was being written.
 *
 * <p>The ETag and version of each pointer last read are remembered (for a bounded number of agents), so that a writer's
 * next save tries its conditional PUT at once instead of reading first; a stale ETag only costs the refused PUT, then
 * the read.
 */
public final class LatestPointer {
    private static final Logger LOG = LoggerFactory.getLogger(LatestPointer.class);
    private static final String FORMAT = "1";
    /** Conditional writes lost to other writers before giving up; each loss means another writer raised it. */
    private static final int ATTEMPTS = 64;
    /** Agents whose pointer's last seen ETag is remembered. */
    private static final int REMEMBERED = 10_000;

    private final CheckpointObjects store;
    private final RecentlyUsed<String, Seen> seen = new RecentlyUsed<>(REMEMBERED);

    /** A pointer as last read: its ETag and the version it named. */
    private record Seen(String eTag, long version) {}

    public LatestPointer(CheckpointObjects store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * The version the pointer names; empty when there is no pointer or it is unreadable (logged, with its location: the
     * caller lists instead and nothing is lost).
     */
    public OptionalLong read(String agent) {
        String key = store.layout().pointerKey(agent);
        Optional<StoredObject> stored;
        try {
            stored = store.objects().get(key);
        } catch (ObjectTooLargeException e) {
            LOG.warn("Ignoring the latest pointer {}: {}; listing the bodies instead", e.location(), e.getMessage());
            return OptionalLong.empty();
        }
        return stored.isEmpty() ? OptionalLong.empty() : versionOf(stored.get());
    }

    /**
     * The conditional PUT of {@code version} on the ETag last seen for this agent, when one was seen below
     * {@code version} (one request instead of two when no other writer moved the pointer since); null when there is
     * nothing to try. The request answers whether it moved the pointer; when it did not, or there was nothing to try,
     * the caller {@link #raise}s.
     */
    public Supplier<Boolean> raiseOnLastSeen(String agent, long version) {
        Seen last = seen.remove(agent);
        if (last == null || last.version() >= version) {
            return null;
        }
        String key = store.layout().pointerKey(agent);
        byte[] content = content(version);
        return () -> store.objects().replaceIfUnchanged(key, last.eTag(), content, Map.of());
    }

    /**
     * Moves the pointer up to {@code version} unless it is already there or above; a missing or unreadable pointer is
     * written as the higher of {@code version} and the newest listed body.
     */
    public void raise(String agent, long version) {
        S3Objects objects = store.objects();
        String key = store.layout().pointerKey(agent);
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            Optional<StoredObject> current = objects.get(key);
            if (current.isEmpty()) {
                if (objects.putIfAbsent(key, content(Math.max(version, newestListed(agent))), Map.of())) {
                    return;
                }
                continue;
            }
            OptionalLong at = remember(agent, current.get());
            if (at.isPresent() && at.getAsLong() >= version) {
                return;
            }
            long target = at.isPresent() ? version : Math.max(version, newestListed(agent));
            if (objects.replaceIfUnchanged(key, current.get().eTag(), content(target), Map.of())) {
                return;
            }
        }
        throw new PersistenceException("Cannot move the latest pointer " + objects.location(key) + " to version "
                + version + ": " + ATTEMPTS + " conditional writes in a row lost to concurrent writers");
    }

    /** The highest version with a body, by a listing; -1 when there is none. */
    private long newestListed(String agent) {
        KeyLayout layout = store.layout();
        Iterator<String> keys = store.objects().keys(layout.bodyFolder(agent), null, 1);
        while (keys.hasNext()) {
            try {
                return layout.versionOfBody(agent, keys.next());
            } catch (NumberFormatException e) {
                // not a body (a store's temporary name of a PUT in flight): the next key
            }
        }
        return -1;
    }

    /** The version {@code pointer} names, remembering its ETag when it is readable. */
    private OptionalLong remember(String agent, StoredObject pointer) {
        OptionalLong version = versionOf(pointer);
        if (version.isPresent() && pointer.eTag() != null) {
            seen.put(agent, new Seen(pointer.eTag(), version.getAsLong()));
        }
        return version;
    }

    private OptionalLong versionOf(StoredObject pointer) {
        String text = new String(pointer.bytes(), StandardCharsets.UTF_8);
        int newline = text.indexOf('\n');
        if (newline > 0 && text.substring(0, newline).equals(FORMAT)) {
            try {
                long version = Long.parseLong(text.substring(newline + 1));
                if (version >= 0) {
                    return OptionalLong.of(version);
                }
            } catch (NumberFormatException e) {
                // unreadable: below
            }
        }
        LOG.warn(
                "Ignoring the latest pointer {}: not \"1\\n<version>\"; listing the bodies instead",
                store.objects().location(pointer.key()));
        return OptionalLong.empty();
    }

    private static byte[] content(long version) {
        return (FORMAT + "\n" + version).getBytes(StandardCharsets.UTF_8);
    }
}
