package dev.agentpersistence.codec;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointTooLargeException;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A {@link CheckpointCodec} that stores another codec's document inside {@link DocumentLayers}
 * (checksum, encryption) and refuses documents over a maximum size.
 *
 * <pre>{@code
 * var codec = LayeredCheckpointCodec.custom()
 *         .layers(DocumentLayers.custom().checksum(true).encryption(EncryptionKeys.parse(keys, "k2")).build())
 *         .maxDocumentSize(16 << 20)
 *         .build();
 * var storage = JdbcStorageProvider.builder().config(config).codec(codec).build();
 * }</pre>
 * Reading accepts documents with or without each layer (see {@link DocumentLayers}), so the
 * layers can be turned on over existing plain JSON data. Immutable and thread-safe.
 */
public final class LayeredCheckpointCodec implements CheckpointCodec {
    private final CheckpointCodec inner;
    private final DocumentLayers layers;
    private final long maxDocumentSize;

    private LayeredCheckpointCodec(Builder builder) {
        this.inner = builder.inner;
        this.layers = builder.layers;
        this.maxDocumentSize = builder.maxDocumentSize;
    }

    /** A builder: JSON documents, no layers, no size limit. */
    public static Builder custom() {
        return new Builder();
    }

    /**
     * {@inheritDoc}
     *
     * @throws CheckpointTooLargeException when the stored document would exceed {@link #maxDocumentSize()}
     */
    @Override
    public byte[] encode(AgentCheckpoint checkpoint) {
        Objects.requireNonNull(checkpoint, "checkpoint");
        byte[] stored = layers.wrap(inner.encode(checkpoint));
        if (stored.length > maxDocumentSize) {
            throw new CheckpointTooLargeException(checkpoint.agentId(), checkpoint.checkpointId(), stored.length,
                    maxDocumentSize);
        }
        return stored;
    }

    @Override
    public AgentCheckpoint decode(byte[] document, CheckpointLocation where) {
        Objects.requireNonNull(where, "where");
        return inner.decode(layers.unwrap(document, where), where);
    }

    /** The codec producing the document inside the layers. */
    public CheckpointCodec inner() {
        return inner;
    }

    /** The layers, for wrapping other stored blobs the same way. */
    public DocumentLayers layers() {
        return layers;
    }

    /** The largest stored document accepted, in bytes ({@link Long#MAX_VALUE} when unlimited). */
    public long maxDocumentSize() {
        return maxDocumentSize;
    }

    /** The limit, when one is set. */
    public OptionalLong sizeLimit() {
        return maxDocumentSize == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(maxDocumentSize);
    }

    @Override
    public String toString() {
        return "LayeredCheckpointCodec[inner=" + inner.getClass().getSimpleName() + ", " + layers
                + ", maxDocumentSize=" + (maxDocumentSize == Long.MAX_VALUE ? "unlimited" : maxDocumentSize) + "]";
    }

    /** Builds {@link LayeredCheckpointCodec}s; every method validates its argument. */
    public static final class Builder {
        private CheckpointCodec inner = CheckpointCodec.json();
        private DocumentLayers layers = DocumentLayers.none();
        private long maxDocumentSize = Long.MAX_VALUE;

        private Builder() {
        }

        /** The codec inside the layers; default {@link CheckpointCodec#json()}. */
        public Builder inner(CheckpointCodec inner) {
            this.inner = Objects.requireNonNull(inner, "inner");
            return this;
        }

        /** The layers; default {@link DocumentLayers#none()}. */
        public Builder layers(DocumentLayers layers) {
            this.layers = Objects.requireNonNull(layers, "layers");
            return this;
        }

        /** The largest stored document, in bytes, {@code > 0}; default unlimited. */
        public Builder maxDocumentSize(long bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("maxDocumentSize must be positive but was " + bytes);
            }
            this.maxDocumentSize = bytes;
            return this;
        }

        public LayeredCheckpointCodec build() {
            return new LayeredCheckpointCodec(this);
        }
    }
}
