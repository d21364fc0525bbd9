package dev.agentpersistence.file.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.codec.CheckpointLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads checkpoint files and id entries through the codec. A file that cannot be decoded, or
 * whose content disagrees with its name, is corrupt: {@link CorruptCheckpointException} naming the
 * path, or — when skipping is configured — one WARN line and the file is left out.
 */
public final class CheckpointReader {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointReader.class);

    private final CheckpointCodec codec;
    private final boolean skipCorrupt;

    public CheckpointReader(CheckpointCodec codec, boolean skipCorrupt) {
        this.codec = Objects.requireNonNull(codec, "codec");
        this.skipCorrupt = skipCorrupt;
    }

    /** The checkpoint file of {@code version}; empty when it does not exist (or is corrupt and skipped). */
    public Optional<AgentCheckpoint> version(AgentPaths paths, long version) {
        return lenient(() -> versionStrict(paths, version));
    }

    /** As {@link #version}, but a corrupt file always throws; for decisions that must not guess. */
    public Optional<AgentCheckpoint> versionStrict(AgentPaths paths, long version) {
        Path file = paths.versionFile(version);
        return read(file).map(bytes -> {
            AgentCheckpoint checkpoint = decode(paths.agentId(), null, file, bytes);
            if (checkpoint.version() != version) {
                throw new CorruptCheckpointException(paths.agentId(), checkpoint.checkpointId(), file.toString(),
                        "the document holds version " + checkpoint.version() + " but is filed as version " + version,
                        null);
            }
            return checkpoint;
        });
    }

    /** The document behind an id entry; empty when it does not exist (or is corrupt and skipped). */
    public Optional<AgentCheckpoint> idEntry(AgentPaths paths, String checkpointId) {
        return lenient(() -> idEntryStrict(paths, checkpointId));
    }

    /** As {@link #idEntry}, but a corrupt entry always throws. */
    public Optional<AgentCheckpoint> idEntryStrict(AgentPaths paths, String checkpointId) {
        Path entry = paths.idEntry(checkpointId);
        return read(entry).map(bytes -> decode(paths.agentId(), checkpointId, entry, bytes));
    }

    private Optional<AgentCheckpoint> lenient(Supplier<Optional<AgentCheckpoint>> read) {
        try {
            return read.get();
        } catch (CorruptCheckpointException e) {
            if (!skipCorrupt) {
                throw e;
            }
            LOG.warn("Skipping corrupt checkpoint file: {}", e.getMessage());
            return Optional.empty();
        }
    }

    private static Optional<byte[]> read(Path file) {
        try {
            return Optional.of(Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw IoFailures.unavailable("read checkpoint file", file, e);
        }
    }

    private AgentCheckpoint decode(String agentId, String checkpointId, Path file, byte[] bytes) {
        var where = new CheckpointLocation(agentId, checkpointId, file.toString());
        try {
            return codec.decode(bytes, where);
        } catch (PersistenceException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new CorruptCheckpointException(agentId, checkpointId, file.toString(),
                    "the codec could not read it (" + e + ")", e);
        }
    }
}
