package dev.agentpersistence.codec;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointTooLargeException;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A {@link CheckpointCodec} that stores another codec's document inside {@link DocumentLayers} (compression, checksum,
 * encryption) and refuses documents over a maximum size.
 *
 * <pre>{@code
 * var codec = LayeredCheckpointCodec.custom()
 *         .layers(DocumentLayers.custom().checksum(true).encryption(EncryptionKeys.parse(keys, "k2")).build())
 *         .maxDocumentSize(16 << 20)
 *         .build();
 * var document = codec.encode(checkpoint);
 * }</pre>
 *
 * A storage provider builds its codec from {@code StorageSettings}; this class is for reading and writing documents
 * outside one.
 *
 * <p>Reading accepts documents with or without each layer (see {@link DocumentLayers}), so the layers can be turned on
 * over existing plain JSON data. Immutable and thread-safe.
 *
 * <p><b>The maximum size</b> applies to the document both as encoded (the inner codec's bytes, before compression) and
 * as stored (after all layers): a checkpoint is refused when either is larger. So whether a checkpoint fits does not
 * depend on how well it compresses or on whether compression is on, a backend's own size limit is still met by the
 * stored bytes, and a reader can refuse any compressed document declaring more than the limit without inflating it:
 * inflation never allocates more than the limit. Consequently, after the limit is lowered, a compressed document
 * written under the higher limit whose content exceeds the new one is refused as corrupt when read (the message names
 * both sizes); raise the limit again to read it. Uncompressed documents are read whatever their size.
 */
public final class LayeredCheckpointCodec implements CheckpointCodec {
    /** The maximum document size unless one is configured: 64 MiB. */
    public static final long DEFAULT_MAX_DOCUMENT_SIZE = 64L << 20;

    private final CheckpointCodec inner;
    private final DocumentLayers layers;
    private final long maxDocumentSize;

    private LayeredCheckpointCodec(Builder builder) {
        this.inner = builder.inner;
        this.layers = builder.layers;
        this.maxDocumentSize = builder.maxDocumentSize;
    }

    /** A builder: JSON documents, no layers, the {@linkplain #DEFAULT_MAX_DOCUMENT_SIZE default maximum size}. */
    public static Builder custom() {
        return new Builder();
    }

    /**
     * {@inheritDoc}
     *
     * @throws CheckpointTooLargeException when the encoded or the stored document would exceed
     *     {@link #maxDocumentSize()} (its size is the larger of the two)
     */
    @Override
    public byte[] encode(AgentCheckpoint checkpoint) {
        return bounded(checkpoint, layers.wrap(encoded(checkpoint)));
    }

    /** The inner codec's document, refused over the maximum size. */
    private byte[] encoded(AgentCheckpoint checkpoint) {
        Objects.requireNonNull(checkpoint, "checkpoint");
        byte[] document = inner.encode(checkpoint);
        if (document.length > maxDocumentSize) {
            throw new CheckpointTooLargeException(
                    checkpoint.agentId(), checkpoint.checkpointId(), document.length, maxDocumentSize);
        }
        return document;
    }

    /** {@code stored}, refused over the maximum size. */
    private byte[] bounded(AgentCheckpoint checkpoint, byte[] stored) {
        if (stored.length > maxDocumentSize) {
            throw new CheckpointTooLargeException(
                    checkpoint.agentId(), checkpoint.checkpointId(), stored.length, maxDocumentSize);
        }
        return stored;
    }

    /**
     * As {@link #encode}, compressing (when compression is on) also a document under the compression threshold, against
     * a dictionary of the fields checkpoint records share: for the short record of a checkpoint whose history is stored
     * elsewhere. Every reader of this version reads it as any other document.
     *
     * @throws CheckpointTooLargeException as {@link #encode} does
     */
    public byte[] encodeRecord(AgentCheckpoint checkpoint) {
        return bounded(checkpoint, layers.wrapRecord(encoded(checkpoint)));
    }

    @Override
    public AgentCheckpoint decode(byte[] document, CheckpointLocation where) {
        Objects.requireNonNull(where, "where");
        return inner.decode(layers.unwrap(document, where, maxDocumentSize), where);
    }

    /** The codec producing the document inside the layers. */
    public CheckpointCodec inner() {
        return inner;
    }

    /** The layers, for wrapping other stored blobs the same way. */
    public DocumentLayers layers() {
        return layers;
    }

    /**
     * The largest document accepted, encoded and stored, in bytes ({@link Long#MAX_VALUE} when unlimited); also the
     * largest a compressed document may declare when read.
     */
    public long maxDocumentSize() {
        return maxDocumentSize;
    }

    /** The limit, when one is set. */
    public OptionalLong sizeLimit() {
        return maxDocumentSize == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(maxDocumentSize);
    }

    @Override
    public String toString() {
        return "LayeredCheckpointCodec[inner=" + inner.getClass().getSimpleName() + ", " + layers + ", maxDocumentSize="
                + (maxDocumentSize == Long.MAX_VALUE ? "unlimited" : maxDocumentSize) + "]";
    }

    /** Builds {@link LayeredCheckpointCodec}s; every method validates its argument. */
    public static final class Builder {
        private CheckpointCodec inner = CheckpointCodec.json();
        private DocumentLayers layers = DocumentLayers.none();
        private long maxDocumentSize = DEFAULT_MAX_DOCUMENT_SIZE;

        private Builder() {}

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

        /** The largest document, encoded and stored, in bytes, {@code > 0}; default 64 MiB. See the class comment. */
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
