package dev.agentpersistence.s3.internal;

import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.backend.DocumentIdentity;
import dev.agentpersistence.backend.StoredDocument;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads the objects of the {@link KeyLayout} as stored documents; shared by saves, queries and deletions. Bodies are
 * unpacked from their {@link BodyFormat}, never beyond the maximum checkpoint size. The id and version a body holds
 * come from the shell's {@link DocumentIdentity}.
 */
public final class CheckpointObjects {
    private final S3Objects objects;
    private final KeyLayout layout;
    private final BodyFormat format;
    private final DocumentIdentity identity;

    public CheckpointObjects(S3Objects objects, KeyLayout layout, BodyFormat format, DocumentIdentity identity) {
        this.objects = Objects.requireNonNull(objects, "objects");
        this.layout = Objects.requireNonNull(layout, "layout");
        this.format = Objects.requireNonNull(format, "format");
        this.identity = Objects.requireNonNull(identity, "identity");
    }

    public S3Objects objects() {
        return objects;
    }

    public KeyLayout layout() {
        return layout;
    }

    public BodyFormat format() {
        return format;
    }

    /** The document stored at {@code version}, or empty when there is none. */
    public Optional<StoredDocument> readBody(String agentId, String agent, long version) {
        String key = layout.bodyKey(agent, version);
        return read(agentId, key)
                .map(stored ->
                        new StoredDocument(agentId, null, version, unpack(agentId, stored), objects.location(key)));
    }

    /** The id of the checkpoint a body holds. */
    public String checkpointIdOf(StoredDocument body) {
        return identityOf(body).checkpointId();
    }

    /** The id and version of the checkpoint a body holds. */
    public DocumentIdentity.Identity identityOf(StoredDocument body) {
        return identity.of(body.agentId(), null, body.document(), body.location());
    }

    /** The id marker of {@code idPart}, or empty when there is none. */
    public Optional<IdMarker> readMarker(String agentId, String agent, String idPart) {
        String key = layout.markerKey(agent, idPart);
        return read(agentId, key)
                .map(stored -> IdMarker.parse(stored.bytes())
                        .orElseThrow(() -> new CorruptCheckpointException(
                                agentId,
                                null,
                                objects.location(key),
                                "not an id marker (expected \"1\\n<version>\\n<checkpoint id>\")",
                                null)));
    }

    private Optional<StoredObject> read(String agentId, String key) {
        try {
            return objects.get(key);
        } catch (ObjectTooLargeException e) {
            throw new CorruptCheckpointException(agentId, null, e.location(), e.getMessage(), null);
        }
    }

    private byte[] unpack(String agentId, StoredObject stored) {
        try {
            return BodyFormat.unwrap(stored.bytes(), stored.metadata(), objects.maxObjectSize());
        } catch (IOException e) {
            throw new CorruptCheckpointException(
                    agentId,
                    null,
                    objects.location(stored.key()),
                    "the body cannot be unpacked (" + e.getMessage() + ")",
                    e);
        }
    }
}
