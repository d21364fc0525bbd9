package dev.agentpersistence.storage.internal;

import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.backend.BlobArea;
import dev.agentpersistence.codec.CheckpointLocation;
import dev.agentpersistence.codec.DocumentLayers;
import dev.agentpersistence.internal.LruMaps;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The blobs of a {@link BlobArea}: each one's bytes behind a four-byte frame inside the store's {@link DocumentLayers}
 * (compression, checksum, encryption), put if absent under the name {@link BlobNames} gives it, and verified against
 * their reference on every read. Remembers the blobs it put within half the grace period (a put again in that time
 * would only renew a write time that still protects them) and the last blobs it read, up to a total size. Thread-safe.
 */
public final class BlobVault {
    /** The reserved agent id a store's blobs are kept under in its segment area. */
    public static final String AGENT_ID =
            dev.agentpersistence.AgentNamespace.of("blob").agentId("sha256");

    /** The first bytes of a blob inside its layers. */
    static final byte[] FRAME = {(byte) 0xA9, 'A', 'P', 'B'};

    private static final long CACHED_BYTES = 32L << 20;
    private static final int REMEMBERED_PUTS = 4096;

    private final BlobArea area;
    private final DocumentLayers layers;
    private final BlobNames names;
    private final long maxSize;
    private final Clock clock;
    private final Duration renewAfter;
    private final Map<String, Instant> recentPuts;
    private final LinkedHashMap<String, byte[]> cache = new LinkedHashMap<>(16, 0.75f, true);
    private long cachedBytes;

    /**
     * @param maxSize the largest blob read back, in bytes (the maximum checkpoint size)
     * @param gracePeriod the history grace period: a blob put less than half of it ago is not put again
     */
    public BlobVault(BlobArea area, DocumentLayers layers, long maxSize, Clock clock, Duration gracePeriod) {
        this.area = Objects.requireNonNull(area, "area");
        this.layers = Objects.requireNonNull(layers, "layers");
        this.names = BlobNames.of(layers);
        this.maxSize = maxSize;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.renewAfter = gracePeriod.dividedBy(2);
        this.recentPuts = LruMaps.bounded(REMEMBERED_PUTS);
    }

    /** The area the blobs are kept in. */
    public BlobArea area() {
        return area;
    }

    /** The names the blobs are kept under in the area. */
    public BlobNames names() {
        return names;
    }

    /** Stores {@code bytes} as the blob {@code reference} names, unless this vault put it a moment ago. */
    public void put(BlobReference reference, byte[] bytes) {
        Instant now = clock.instant();
        synchronized (recentPuts) {
            Instant last = recentPuts.get(reference.sha256());
            if (last != null && !now.isBefore(last) && now.isBefore(last.plus(renewAfter))) {
                return;
            }
        }
        byte[] framed = new byte[FRAME.length + bytes.length];
        System.arraycopy(FRAME, 0, framed, 0, FRAME.length);
        System.arraycopy(bytes, 0, framed, FRAME.length, bytes.length);
        area.segments().putSegment(area.agentId(), names.written(reference), layers.wrap(framed));
        synchronized (recentPuts) {
            recentPuts.put(reference.sha256(), now);
        }
    }

    /**
     * The verified bytes of every blob {@code references} name, keyed by hash, fetched in one call to the area.
     *
     * @throws CorruptCheckpointException naming the blob and {@code where} (the document referencing it) when a blob is
     *     missing, damaged, or not the bytes its reference names
     */
    public Map<String, byte[]> get(Collection<BlobReference> references, CheckpointLocation where) {
        var found = new HashMap<String, byte[]>();
        var missing = new LinkedHashMap<String, BlobReference>();
        synchronized (cache) {
            for (BlobReference reference : references) {
                byte[] cached = cache.get(reference.sha256());
                if (cached != null) {
                    found.put(reference.sha256(), cached);
                } else {
                    missing.put(reference.sha256(), reference);
                }
            }
        }
        if (missing.isEmpty()) {
            return found;
        }
        var candidates = new LinkedHashMap<BlobReference, List<String>>();
        var wanted = new LinkedHashSet<String>();
        for (BlobReference reference : missing.values()) {
            List<String> names = this.names.candidates(reference); // keyed hashes: computed once per read
            candidates.put(reference, names);
            wanted.addAll(names);
        }
        Map<String, byte[]> stored = area.segments().getSegments(area.agentId(), wanted);
        for (BlobReference reference : missing.values()) {
            byte[] bytes = verified(reference, candidates.get(reference), stored, where);
            found.put(reference.sha256(), bytes);
            remember(reference.sha256(), bytes);
        }
        return found;
    }

    /** The bytes of {@code reference} under the first of its names {@code stored} holds, checked against it. */
    private byte[] verified(
            BlobReference reference, List<String> candidates, Map<String, byte[]> stored, CheckpointLocation where) {
        String name = null;
        for (String candidate : candidates) {
            if (stored.get(candidate) != null) {
                name = candidate;
                break;
            }
        }
        if (name == null) {
            throw corrupt(
                    where, "blob '" + names.written(reference) + "' (" + area.description() + ") is missing", null);
        }
        String blob = "blob '" + name + "' (" + area.description() + ")";
        byte[] framed;
        try {
            framed = layers.unwrap(stored.get(name), new CheckpointLocation(area.agentId(), name, blob), maxSize);
        } catch (CorruptCheckpointException e) {
            throw corrupt(where, blob + " is unreadable: " + e.getMessage(), e);
        }
        if (framed.length < FRAME.length || !Arrays.equals(framed, 0, FRAME.length, FRAME, 0, FRAME.length)) {
            throw corrupt(where, blob + " is not a blob", null);
        }
        byte[] bytes = Arrays.copyOfRange(framed, FRAME.length, framed.length);
        if (bytes.length != reference.size() || !BlobReference.sha256(bytes).equals(reference.sha256())) {
            throw corrupt(
                    where,
                    blob + " holds " + bytes.length + " bytes that are not the " + reference.size()
                            + " bytes its reference names (hash mismatch)",
                    null);
        }
        return bytes;
    }

    private void remember(String sha256, byte[] bytes) {
        if (bytes.length > CACHED_BYTES / 4) {
            return;
        }
        synchronized (cache) {
            if (cache.put(sha256, bytes) == null) {
                cachedBytes += bytes.length;
            }
            var eldest = cache.entrySet().iterator();
            while (cachedBytes > CACHED_BYTES && eldest.hasNext()) {
                cachedBytes -= eldest.next().getValue().length;
                eldest.remove();
            }
        }
    }

    private static CorruptCheckpointException corrupt(CheckpointLocation where, String problem, Throwable cause) {
        return new CorruptCheckpointException(
                where.agentId(), where.checkpointId(), where.description(), problem, cause);
    }
}
