package dev.agentpersistence.s3.internal;

import java.time.Instant;
import java.util.Map;

/**
 * One object read from the bucket.
 *
 * @param key its key
 * @param bytes its content
 * @param metadata its user metadata (names in lower case, without {@code x-amz-meta-})
 * @param eTag its entity tag, for conditional overwrites
 * @param lastModified when it was written, by the store's clock
 * @param readAt the store's time when it was read ({@code Date} response header), or {@code null}
 */
public record StoredObject(
        String key, byte[] bytes, Map<String, String> metadata, String eTag, Instant lastModified, Instant readAt) {
    public StoredObject {
        metadata = Map.copyOf(metadata);
    }
}
