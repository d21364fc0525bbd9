package dev.agentpersistence.history.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a stored checkpoint says about the part of its history kept in segments; stored as compact JSON in a reserved
 * metadata entry:
 *
 * <pre>{@code {"format":1,"size":2000,"blockSize":16,"segments":["0-1792-…","1792-1984-…"],"digest":"…"}}</pre>
 *
 * @param size messages in the whole history
 * @param blockSize the block size the segment ids were computed with
 * @param segments the segments holding messages {@code [0, b)}, in order
 * @param digest {@link ChainHasher#digest} of the whole history, lower-case hex
 */
public record HistoryDescriptor(int size, int blockSize, List<SegmentId> segments, String digest)
        implements HistoryReference {
    /** The descriptor format this library writes and reads. */
    public static final int FORMAT = 1;

    private static final ObjectMapper JSON = new ObjectMapper();

    public HistoryDescriptor {
        segments = List.copyOf(segments);
        Objects.requireNonNull(digest, "digest");
    }

    /** Where the segments end: the first message kept inside the checkpoint. */
    public int segmentsEnd() {
        return segments.isEmpty() ? 0 : segments.get(segments.size() - 1).span().to();
    }

    /** The segment ids as stored. */
    public List<String> segmentIds() {
        return segments.stream().map(SegmentId::text).toList();
    }

    /** The JSON text. */
    public String toJson() {
        if (!SegmentId.isLowerHex(digest, digest.length())) {
            return jacksonJson();
        }
        // numbers, segment ids (digits, '-' and hex) and a hex digest need no escaping: the text is the one Jackson
        // writes for the same object, built without a tree
        var json = new StringBuilder(64 + segments.size() * 80 + digest.length());
        json.append("{\"format\":")
                .append(FORMAT)
                .append(",\"size\":")
                .append(size)
                .append(",\"blockSize\":")
                .append(blockSize)
                .append(",\"segments\":[");
        for (int i = 0; i < segments.size(); i++) {
            json.append(i == 0 ? "\"" : ",\"").append(segments.get(i).text()).append('"');
        }
        return json.append("],\"digest\":\"").append(digest).append("\"}").toString();
    }

    /** {@link #toJson()} written by Jackson: for a digest that is not hex, and to compare with in tests. */
    String jacksonJson() {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        root.put("size", size);
        root.put("blockSize", blockSize);
        var array = root.putArray("segments");
        segments.forEach(segment -> array.add(segment.text()));
        root.put("digest", digest);
        return root.toString();
    }

    /**
     * Reads {@link #toJson()} text and checks that the segments are contiguous from 0.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static HistoryDescriptor parse(String text) {
        if (HistoryReference.parse(text) instanceof HistoryDescriptor descriptor) {
            return descriptor;
        }
        throw new IllegalArgumentException("the history descriptor is not of format " + FORMAT + ": " + text);
    }

    /** {@link #parse(String)} of a tree whose format was checked. */
    static HistoryDescriptor parse(JsonNode root, String text) {
        int size = integer(root, "size");
        int blockSize = integer(root, "blockSize");
        JsonNode ids = root.get("segments");
        JsonNode digest = root.get("digest");
        if (ids == null || !ids.isArray() || digest == null || !digest.isTextual() || blockSize < 1) {
            throw new IllegalArgumentException("the history descriptor lacks segments, digest or block size: " + text);
        }
        var segments = new ArrayList<SegmentId>();
        int end = 0;
        for (JsonNode id : ids) {
            if (!id.isTextual()) {
                throw new IllegalArgumentException("a segment id of the history descriptor is not a string: " + text);
            }
            SegmentId segment = SegmentId.parse(id.textValue());
            if (segment.span().from() != end || segment.span().to() % blockSize != 0) {
                throw new IllegalArgumentException("the history segments are not contiguous blocks from 0: " + text);
            }
            end = segment.span().to();
            segments.add(segment);
        }
        if (end > size) {
            throw new IllegalArgumentException(
                    "the history segments end at " + end + ", beyond the history size " + size);
        }
        return new HistoryDescriptor(size, blockSize, segments, digest.textValue());
    }

    static int integer(JsonNode root, String field) {
        JsonNode value = root.get(field);
        if (value == null || !value.canConvertToInt() || !value.isIntegralNumber() || value.intValue() < 0) {
            throw new IllegalArgumentException("the history descriptor has no valid '" + field + "'");
        }
        return value.intValue();
    }
}
