package dev.agentpersistence.redis.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.agentpersistence.backend.StoredCheckpoint;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The small JSON record per checkpoint that the query script reads instead of the body: <code>
 * {"i":checkpointId,"c":instantKey,"n":nodeId,"t":true,"m":{metadata}}</code> ({@code n} absent without a node id,
 * {@code t} only on tombstones).
 */
public final class CheckpointAttributes {
    private static final JsonFactory JSON = new JsonFactory();

    private CheckpointAttributes() {}

    /** The attribute record of {@code checkpoint}. */
    public static byte[] of(StoredCheckpoint checkpoint) {
        var out = new ByteArrayOutputStream(128);
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
