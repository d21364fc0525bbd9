package dev.agentpersistence.s3.internal;

import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.backend.SegmentInfo;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * History segments as objects under {@code P/h/A/}: one object per segment holding the segment id, a newline and the
 * bytes (so digest-named segments stay listable and a misplaced object is detected); its last-modified time is the
 * segment's write time.
 *
 * <p>A put is one {@code If-None-Match: *} PUT; when the segment exists, a server-side copy onto itself renews its
 * last-modified time. Reads are one GET per segment. A deletion lists the agent's segments (one request per 1,000) and
 * deletes in one {@code DeleteObjects} those still older than the cutoff. S3 has no delete conditional on the
 * modification time, so a segment written again between that listing and the deletion (milliseconds) can be lost; the
 * grace period of the collector makes this need a save that reuses a segment which was unreferenced and older than the
 * grace period at that very moment.
 */
public final class SegmentObjects {
    private final S3Objects objects;
    private final KeyLayout layout;

    public SegmentObjects(S3Objects objects, KeyLayout layout) {
        this.objects = Objects.requireNonNull(objects, "objects");
        this.layout = Objects.requireNonNull(layout, "layout");
    }

    /** Stores the segment unless present; renews its write time either way. */
    public void put(String agentId, String segmentId, byte[] content) {
        String agent = KeyParts.encode(agentId);
        if (KeyParts.isDigest(agent)) {
            objects.put(layout.segmentNameKey(agent), agentId.getBytes(StandardCharsets.UTF_8), Map.of());
        }
        String key = layout.segmentKey(agent, KeyParts.encode(segmentId));
        if (!objects.putIfAbsent(key, withHeader(segmentId, content), Map.of())) {
            objects.touch(key);
        }
    }

    /** The stored bytes of the given segments that exist, one GET each. */
    public Map<String, byte[]> get(String agentId, Collection<String> segmentIds) {
        String agent = KeyParts.encode(agentId);
        var found = new HashMap<String, byte[]>();
        for (String segmentId : new LinkedHashSet<>(segmentIds)) {
            String key = layout.segmentKey(agent, KeyParts.encode(segmentId));
            objects.get(key).ifPresent(stored -> found.put(segmentId, content(agentId, segmentId, stored)));
        }
        return found;
    }

    /** The agent's segments with their write times, sorted by id. */
    public List<SegmentInfo> list(String agentId) {
        String agent = KeyParts.encode(agentId);
        var infos = new ArrayList<SegmentInfo>();
        for (S3Object object : objects.list(layout.segmentFolder(agent))) {
            idOf(agent, object.key()).ifPresent(id -> infos.add(new SegmentInfo(id, object.lastModified())));
        }
        infos.sort(Comparator.comparing(SegmentInfo::segmentId));
        return infos;
    }

    /** Deletes the given segments last modified before {@code writtenBefore}; returns how many. */
    public int delete(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
        String agent = KeyParts.encode(agentId);
        var wanted = new HashSet<String>();
        for (String segmentId : segmentIds) {
            wanted.add(layout.segmentKey(agent, KeyParts.encode(segmentId)));
        }
        var doomed = new ArrayList<String>();
        int remaining = 0;
        for (S3Object object : objects.list(layout.segmentFolder(agent))) {
            if (object.key().equals(layout.segmentNameKey(agent))) {
                continue;
            }
            if (wanted.contains(object.key()) && object.lastModified().isBefore(writtenBefore)) {
                doomed.add(object.key());
            } else {
                remaining++;
            }
        }
        objects.delete(doomed);
        if (remaining == 0 && !doomed.isEmpty() && KeyParts.isDigest(agent)) {
            forgetName(agentId, agent);
        }
        return doomed.size();
    }

    /** The ids of agents with at least one segment, sorted. */
    public List<String> agents() {
        return AgentDirectory.agentIds(
                objects,
                objects.folders(layout.segmentAgentsFolder()),
                layout::agentOfSegmentFolder,
                layout::segmentNameKey);
    }

    /** Removes the name of an agent left without segments, and restores it if a segment arrived meanwhile. */
    private void forgetName(String agentId, String agent) {
        objects.delete(List.of(layout.segmentNameKey(agent)));
        boolean segmentsLeft = objects.list(layout.segmentFolder(agent)).stream()
                .anyMatch(object -> !object.key().equals(layout.segmentNameKey(agent)));
        if (segmentsLeft) {
            objects.put(layout.segmentNameKey(agent), agentId.getBytes(StandardCharsets.UTF_8), Map.of());
        }
    }

    private Optional<String> idOf(String agent, String key) {
        if (key.equals(layout.segmentNameKey(agent))) {
            return Optional.empty();
        }
        String segment = key.substring(layout.segmentFolder(agent).length());
        if (!KeyParts.isDigest(segment)) {
            return KeyParts.decode(segment).filter(id -> KeyParts.encode(id).equals(segment));
        }
        return objects.get(key).flatMap(stored -> {
            int newline = indexOfNewline(stored.bytes());
            return newline < 0
                    ? Optional.empty()
                    : Optional.of(new String(stored.bytes(), 0, newline, StandardCharsets.UTF_8))
                            .filter(id -> KeyParts.encode(id).equals(segment));
        });
    }

    private static byte[] withHeader(String segmentId, byte[] content) {
        byte[] id = (segmentId + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] stored = Arrays.copyOf(id, id.length + content.length);
        System.arraycopy(content, 0, stored, id.length, content.length);
        return stored;
    }

    private byte[] content(String agentId, String segmentId, StoredObject stored) {
        byte[] bytes = stored.bytes();
        int newline = indexOfNewline(bytes);
        if (newline < 0 || !new String(bytes, 0, newline, StandardCharsets.UTF_8).equals(segmentId)) {
            throw new CorruptCheckpointException(
                    agentId,
                    null,
                    objects.location(stored.key()),
                    "the object does not hold history segment '" + segmentId + "'",
                    null);
        }
        return Arrays.copyOfRange(bytes, newline + 1, bytes.length);
    }

    private static int indexOfNewline(byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
