package dev.agentpersistence.examples.jsonl;

import dev.agentpersistence.codec.CheckpointCodec;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Settings of a {@link JsonLinesStorageProvider}: the file, the checkpoint codec and whether every
 * write is forced to disk. Immutable; build with {@link #custom()}.
 */
public final class JsonLinesStorageConfig {
    /** The default file: {@code agent-checkpoints.jsonl} in the working directory. */
    public static final Path DEFAULT_FILE = Path.of("agent-checkpoints.jsonl");

    private final Path file;
    private final CheckpointCodec codec;
    private final boolean fsync;

    private JsonLinesStorageConfig(Builder builder) {
        this.file = builder.file.toAbsolutePath().normalize();
        this.codec = builder.codec;
        this.fsync = builder.fsync;
    }

    /** Every setting at its default. */
    public static JsonLinesStorageConfig ofDefaults() {
        return custom().build();
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder();
    }

    /** The JSON Lines file (absolute); a lock file {@code <file>.lock} sits next to it. */
    public Path file() {
        return file;
    }

    /** Turns a checkpoint into the document stored on its line; default {@link CheckpointCodec#json()}. */
    public CheckpointCodec codec() {
        return codec;
    }

    /** Whether each write is forced to disk before it returns; default {@code true}. */
    public boolean fsync() {
        return fsync;
    }

    @Override
    public String toString() {
        return "JsonLinesStorageConfig[file=" + file + ", fsync=" + fsync + "]";
    }

    /** Builds {@link JsonLinesStorageConfig}s. */
    public static final class Builder {
        private Path file = DEFAULT_FILE;
        private CheckpointCodec codec = CheckpointCodec.json();
        private boolean fsync = true;

        private Builder() {
        }

        /** The JSON Lines file; its directory is created when the provider opens. */
        public Builder file(Path file) {
            this.file = Objects.requireNonNull(file, "file");
            return this;
        }

        /** The codec of the stored documents. */
        public Builder codec(CheckpointCodec codec) {
            this.codec = Objects.requireNonNull(codec, "codec");
            return this;
        }

        /** Whether each write is forced to disk before it returns. */
        public Builder fsync(boolean fsync) {
            this.fsync = fsync;
            return this;
        }

        /** The immutable settings. */
        public JsonLinesStorageConfig build() {
            return new JsonLinesStorageConfig(this);
        }
    }
}
