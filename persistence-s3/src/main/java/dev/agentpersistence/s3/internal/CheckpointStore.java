package dev.agentpersistence.s3.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.codec.CheckpointLocation;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

/** Reads and decodes the objects of the {@link KeyLayout}; shared by saves, queries and deletions. */
public final class CheckpointStore {
    private final S3Objects objects;
    private final KeyLayout layout;
    private final CheckpointCodec codec;
    private final BodyFormat format;

    public CheckpointStore(S3Objects objects, KeyLayout layout, CheckpointCodec codec, BodyFormat format) {
        this.objects = Objects.requireNonNull(objects, "objects");
        this.layout = Objects.requireNonNull(layout, "layout");
        this.codec = Objects.requireNonNull(codec, "codec");
        this.format = Objects.requireNonNull(format, "format");
    }

    public S3Objects objects() {
        return objects;
    }

    public KeyLayout layout() {
        return layout;
    }

    public CheckpointCodec codec() {
        return codec;
    }

    public BodyFormat format() {
        return format;
    }

    /** The checkpoint stored at {@code version}, or empty when there is none. */
    public Optional<AgentCheckpoint> readBody(String agentId, String agent, long version) {
        return objects.get(layout.bodyKey(agent, version)).map(stored -> decode(agentId, stored, version));
    }

    /** The id marker of {@code idSegment}, or empty when there is none. */
    public Optional<IdMarker> readMarker(String agentId, String agent, String idSegment) {
        String key = layout.markerKey(agent, idSegment);
        return objects.get(key).map(stored -> IdMarker.parse(stored.bytes()).orElseThrow(() ->
                new CorruptCheckpointException(agentId, null, objects.location(key),
                        "not an id marker (expected \"1\\n<version>\\n<checkpoint id>\")", null)));
    }

    /**
     * Decodes a body read from the version key of {@code version}.
     *
     * @throws CorruptCheckpointException naming {@code s3://bucket/key} when it cannot be read or
     *                                    holds another version or agent
     */
    public AgentCheckpoint decode(String agentId, StoredObject stored, long version) {
        String location = objects.location(stored.key());
        byte[] document;
        try {
            document = BodyFormat.unwrap(stored.bytes(), stored.metadata());
        } catch (IOException e) {
            throw new CorruptCheckpointException(agentId, null, location, "the body cannot be unpacked (" + e + ")", e);
        }
        AgentCheckpoint checkpoint = codec.decode(document, new CheckpointLocation(agentId, null, location));
        if (checkpoint.version() != version || !checkpoint.agentId().equals(agentId)) {
            throw new CorruptCheckpointException(agentId, checkpoint.checkpointId(), location,
                    "the document is version " + checkpoint.version() + " of agent '" + checkpoint.agentId()
                            + "' but is stored as version " + version + " of agent '" + agentId + "'", null);
        }
        return checkpoint;
    }
}
