package dev.agentpersistence.redis.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.agentpersistence.backend.StoredCheckpoint;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The small JSON record per checkpoint that the query script reads instead of the body: <code>
 * {"i":checkpointId,"c":instantKey,"n":nodeId,"t":true,"m":{metadata}}</code> ({@code n} absent without a node id,
 * {@code t} only on tombstones). Saves write it into the checkpoint's index entry ({@link #indexEntry}); agents saved
 * by the first layout keep it in a hash of their own, and the scripts read both.
 */
public final class CheckpointAttributes {
    private static final JsonFactory JSON = new JsonFactory();

    private CheckpointAttributes() {}

    /** The attribute record of {@code checkpoint}. */
    public static byte[] of(StoredCheckpoint checkpoint) {
        return write(new ByteArrayOutputStream(128), checkpoint);
    }

    /**
     * The index entry of {@code checkpoint} in its agent's versions sorted set: {@code paddedVersion}, {@code ':'} and
     * the attribute record. Entries sort by version (every version has 19 digits), and each says its layout: the first
     * layout's entries are the bare version.
     */
    public static byte[] indexEntry(String paddedVersion, StoredCheckpoint checkpoint) {
        var out = new ByteArrayOutputStream(160);
        out.writeBytes(paddedVersion.getBytes(StandardCharsets.US_ASCII));
        out.write(':');
        return write(out, checkpoint);
    }

    private static byte[] write(ByteArrayOutputStream out, StoredCheckpoint checkpoint) {
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("i", checkpoint.checkpointId());
            g.writeStringField("c", IndexValues.instantKey(checkpoint.createdAt()));
            if (checkpoint.nodeId() != null) {
                g.writeStringField("n", checkpoint.nodeId());
            }
            if (checkpoint.tombstone()) {
                g.writeBooleanField("t", true);
            }
            g.writeObjectFieldStart("m");
            for (var entry : checkpoint.metadata().entrySet()) {
                g.writeStringField(entry.getKey(), entry.getValue());
            }
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
