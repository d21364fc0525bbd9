package dev.agentpersistence.storage.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.codec.DocumentLayers;
import dev.agentpersistence.codec.EncryptionKeys;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The attributes a backend filters on (node id, metadata keys and values), computed from a checkpoint, and the same
 * transformation applied to a filter, so that a backend compares like with like.
 *
 * <p>Without encryption the attributes are the values themselves. With encryption they are keyed hashes, {@code ~<key
 * id>~<22 characters of Base64url>}, so a dump of the store does not show them: it shows only which checkpoints share a
 * node id or a metadata entry. A metadata value is hashed together with its key. Equality filters keep working: a
 * filter is hashed the same way, once per key of the ring (records keep the hashes of the key that was current when
 * they were saved), and once as plain values unless unencrypted documents are refused (records saved before encryption
 * was on).
 */
public final class FilterAttributes {
    private static final char MARK = '~';
    private static final int HASH_BYTES = 16;

    private final EncryptionKeys keys;
    private final boolean plainRecordsReadable;

    private FilterAttributes(EncryptionKeys keys, boolean plainRecordsReadable) {
        this.keys = keys;
        this.plainRecordsReadable = plainRecordsReadable;
    }

    /** The attributes for documents written with {@code layers}: keyed hashes when they encrypt. */
    public static FilterAttributes of(DocumentLayers layers) {
        Objects.requireNonNull(layers, "layers");
        return new FilterAttributes(layers.keys().orElse(null), !layers.requiresEncryption());
    }

    /** The node attribute of {@code checkpoint}. */
    public String nodeId(AgentCheckpoint checkpoint) {
        return keys == null ? checkpoint.nodeId() : node(keys.currentKeyId(), checkpoint.nodeId());
    }

    /** The metadata attributes of {@code checkpoint} (reserved entries are never among them). */
    public Map<String, String> metadata(AgentCheckpoint checkpoint) {
        return keys == null ? checkpoint.metadata() : metadata(keys.currentKeyId(), checkpoint.metadata());
    }

    /**
     * The backend queries that together find what {@code filter} asks for: {@code filter} itself when the attributes
     * are plain or it names no node id or metadata; else one per form the records may have. Their results are merged by
     * version.
     */
    public List<CheckpointFilter> queries(CheckpointFilter filter) {
        if (keys == null || (filter.nodeId() == null && filter.metadata().isEmpty())) {
            return List.of(filter);
        }
        var queries = new ArrayList<CheckpointFilter>();
        for (String keyId : keys.keyIds()) {
            queries.add(filter.toBuilder()
                    .nodeId(filter.nodeId() == null ? null : node(keyId, filter.nodeId()))
                    .metadata(metadata(keyId, filter.metadata()))
                    .build());
        }
        if (plainRecordsReadable) {
            queries.add(filter);
        }
        return List.copyOf(queries);
    }

    /**
     * The filter to hand a backend that only narrows candidates (a {@code CandidateScan}) and leaves matching to the
     * shell: {@code filter} itself for plain attributes; without its node id and metadata for keyed ones, which a
     * record may hold under any key of the ring.
     */
    public CheckpointFilter candidates(CheckpointFilter filter) {
        return keys == null
                ? filter
                : filter.toBuilder().nodeId(null).metadata(Map.of()).build();
    }

    private String node(String keyId, String nodeId) {
        return nodeId == null ? null : hash(keyId, "node", nodeId);
    }

    private Map<String, String> metadata(String keyId, Map<String, String> metadata) {
        var hashed = new LinkedHashMap<String, String>();
        metadata.forEach((key, value) -> hashed.put(
                hash(keyId, "metadata key", key), hash(keyId, "metadata value", key.length() + ":" + key + value)));
        return hashed;
    }

    private String hash(String keyId, String field, String value) {
        byte[] input = (field + '\0' + value).getBytes(StandardCharsets.UTF_8);
        byte[] hash = keys.keyedHash(keyId, input);
        return MARK
                + keyId
                + MARK
                + Base64.getUrlEncoder().withoutPadding().encodeToString(java.util.Arrays.copyOf(hash, HASH_BYTES));
    }
}
