package dev.agentpersistence.s3.internal;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.backend.StoredCheckpoint;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The filterable attributes of one checkpoint, written into the name of a one-byte index object so that one listing
 * answers filters without reading bodies: {@code <inverted version>.<epoch second>.<nano>.<t|c>.<node hash|~>.<metadata
 * bloom>/<id segment>}.
 *
 * <p>Version, {@code createdAt} (exact) and the tombstone flag are stored as they are; the node id as a 48-bit hash and
 * the metadata as a 128-bit Bloom filter, which may let a non-matching checkpoint through (it is then rejected after
 * its body is read) but never hide a matching one.
 *
 * @param version checkpoint version
 * @param createdAt checkpoint creation time, exact
 * @param tombstone whether the checkpoint is a tombstone
 * @param nodeHash 12 hex digits of the node id's SHA-256, or {@code ~} for no node id
 * @param bloom 32 hex digits: Bloom filter over the metadata entries
 * @param idSegment {@link KeyParts#encode(String)} of the checkpoint id
 */
public record IndexEntry(
        long version, Instant createdAt, boolean tombstone, String nodeHash, String bloom, String idSegment) {
    /**
     * The content of an index object: one byte, as some HTTP stacks mishandle a zero-length PUT that carries
     * {@code Expect: 100-continue}. Readers never look at it.
     */
    public static final byte[] CONTENT = {'1'};

    private static final String NO_NODE = "~";
    private static final int BLOOM_BITS = 128;
    private static final int BLOOM_HASHES = 3;

    /** The entry describing {@code checkpoint}. */
    public static IndexEntry of(StoredCheckpoint checkpoint) {
        return new IndexEntry(
                checkpoint.version(),
                checkpoint.createdAt(),
                checkpoint.tombstone(),
                nodeHash(checkpoint.nodeId()),
                bloom(checkpoint.metadata()),
                KeyParts.encode(checkpoint.checkpointId()));
    }

    /** The key part before the id segment; starts with the inverted version so listings run newest first. */
    public String leaf() {
        return KeyLayout.invert(version) + "." + createdAt.getEpochSecond() + "."
                + String.format("%09d", createdAt.getNano()) + "." + (tombstone ? 't' : 'c') + "." + nodeHash
                + "." + bloom;
    }

    /** Reads an entry back from the parts of its key; empty when they are not in this format. */
    public static Optional<IndexEntry> parse(String leaf, String idSegment) {
        String[] parts = leaf.split("\\.", -1);
        if (parts.length != 6
                || parts[0].length() != 19
                || parts[5].length() != BLOOM_BITS / 4
                || idSegment.isEmpty()
                || !(parts[3].equals("t") || parts[3].equals("c"))) {
            return Optional.empty();
        }
        try {
            long version = KeyLayout.uninvert(parts[0]);
            Instant createdAt = Instant.ofEpochSecond(Long.parseLong(parts[1]), Integer.parseInt(parts[2]));
            return Optional.of(new IndexEntry(version, createdAt, parts[3].equals("t"), parts[4], parts[5], idSegment));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * A test that rejects entries which cannot match {@code filter} (every field but {@code limit}); entries it accepts
     * may still fail {@link CheckpointFilter#matches} on the full checkpoint.
     */
    public static Predicate<IndexEntry> prefilter(CheckpointFilter filter) {
        String node = filter.nodeId() == null ? null : nodeHash(filter.nodeId());
        long[] required = bloomWords(filter.metadata());
        return entry -> {
            if (filter.maxVersion() != null && entry.version > filter.maxVersion()) {
                return false;
            }
            if (filter.createdAfter() != null && entry.createdAt.isBefore(filter.createdAfter())) {
                return false;
            }
            if (filter.createdBefore() != null && !entry.createdAt.isBefore(filter.createdBefore())) {
                return false;
            }
            if (!filter.includeTombstones() && entry.tombstone) {
                return false;
            }
            if (node != null && !node.equals(entry.nodeHash)) {
                return false;
            }
            if (required != null) {
                long[] present = parseBloom(entry.bloom);
                return present != null
                        && (present[0] & required[0]) == required[0]
                        && (present[1] & required[1]) == required[1];
            }
            return true;
        };
    }

    static String nodeHash(String nodeId) {
        if (nodeId == null) {
            return NO_NODE;
        }
        return KeyParts.hex(KeyParts.sha256(nodeId.getBytes(StandardCharsets.UTF_8)))
                .substring(0, 12);
    }

    static String bloom(Map<String, String> metadata) {
        long[] words = bloomWords(metadata);
        if (words == null) {
            words = new long[2];
        }
        return String.format("%016x%016x", words[0], words[1]);
    }

    /** The bits of every entry of {@code metadata}, or {@code null} when it is empty. */
    private static long[] bloomWords(Map<String, String> metadata) {
        if (metadata.isEmpty()) {
            return null;
        }
        long[] words = new long[2];
        for (var entry : metadata.entrySet()) {
            byte[] digest =
                    KeyParts.sha256((entry.getKey() + '\0' + entry.getValue()).getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < BLOOM_HASHES; i++) {
                int bit = ((digest[2 * i] & 0xff) << 8 | (digest[2 * i + 1] & 0xff)) % BLOOM_BITS;
                words[bit / 64] |= 1L << (bit % 64);
            }
        }
        return words;
    }

    private static long[] parseBloom(String text) {
        try {
            return new long[] {
                Long.parseUnsignedLong(text.substring(0, 16), 16), Long.parseUnsignedLong(text.substring(16, 32), 16)
            };
        } catch (RuntimeException e) {
            return null;
        }
    }
}
