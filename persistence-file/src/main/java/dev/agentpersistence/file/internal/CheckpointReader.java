package dev.agentpersistence.file.internal;

import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.backend.DocumentIdentity;
import dev.agentpersistence.backend.StoredDocument;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads checkpoint files and id entries as stored documents, never more than the maximum checkpoint size: a larger file
 * is a {@link CorruptCheckpointException} naming its path, found from the file's size before anything is allocated. The
 * id and version of an id entry's document come from the shell's {@link DocumentIdentity}.
 */
public final class CheckpointReader {
    private final long maxSize;
    private final DocumentIdentity identity;

    public CheckpointReader(long maxSize, DocumentIdentity identity) {
        this.maxSize = maxSize;
        this.identity = Objects.requireNonNull(identity, "identity");
    }

    /** The checkpoint file of {@code version}; empty when it does not exist. */
    public Optional<StoredDocument> version(AgentPaths paths, long version) {
        Path file = paths.versionFile(version);
        return read(paths, file)
                .map(bytes -> new StoredDocument(paths.agentId(), null, version, bytes, file.toString()));
    }

    /** The document behind an id entry, with the version its content names; empty when there is no entry. */
    public Optional<StoredDocument> idEntry(AgentPaths paths, String checkpointId) {
        Path entry = paths.idEntry(checkpointId);
        return read(paths, entry)
                .map(bytes -> new StoredDocument(
                        paths.agentId(),
                        checkpointId,
                        identity.of(paths.agentId(), checkpointId, bytes, entry.toString())
                                .version(),
                        bytes,
                        entry.toString()));
    }

    /** The checkpoint id stored in a checkpoint file; empty when it does not exist. */
    public Optional<String> checkpointIdOf(AgentPaths paths, long version) {
        Path file = paths.versionFile(version);
        return read(paths, file)
                .map(bytes -> identity.of(paths.agentId(), null, bytes, file.toString())
                        .checkpointId());
    }

    private Optional<byte[]> read(AgentPaths paths, Path file) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size > maxSize) {
                throw new CorruptCheckpointException(
                        paths.agentId(),
                        null,
                        file.toString(),
                        "the file has " + size + " bytes, more than the maximum checkpoint size of " + maxSize,
                        null);
            }
            ByteBuffer buffer = ByteBuffer.allocate((int) size);
            while (buffer.hasRemaining()) {
                if (channel.read(buffer) < 0) {
                    break; // truncated while reading: the shell reports what is left as corrupt
                }
            }
            return Optional.of(
                    buffer.position() == size
                            ? buffer.array()
                            : java.util.Arrays.copyOf(buffer.array(), buffer.position()));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw IoFailures.unavailable("read checkpoint file", file, e);
        }
    }
}
