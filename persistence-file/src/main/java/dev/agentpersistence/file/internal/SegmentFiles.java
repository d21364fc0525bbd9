package dev.agentpersistence.file.internal;

import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.backend.SegmentInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * History segments as files: {@code <root>/<agent>/.segments/<encoded segment id>}, each holding the segment id in
 * UTF-8, a newline, then the bytes (so hashed names stay listable and a misplaced file is detected). A segment is
 * written like a checkpoint: a temporary file in the agent directory, forced to disk, then hard-linked under its name,
 * which fails atomically when the name exists; the directory is forced afterwards. The file's modification time is the
 * segment's write time, set from the configured clock; putting an existing segment only updates it.
 *
 * <p>Deletion with a cutoff moves the file to a trash name first (atomic), checks the time again on the moved file and
 * puts it back when a writer touched it in between, so a segment written again after the caller listed it is never
 * lost.
 */
public final class SegmentFiles {
    private final FileLayout layout;
    private final DurableFiles files;
    private final Clock clock;

    public SegmentFiles(FileLayout layout, DurableFiles files, Clock clock) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.files = Objects.requireNonNull(files, "files");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Stores the segment unless present; sets its write time to now either way. */
    public void put(String agentId, String segmentId, byte[] content) {
        AgentPaths paths = layout.agent(agentId);
        Path target = paths.segmentFile(segmentId);
        try {
            FileTime now = FileTime.from(clock.instant());
            if (touch(target, now)) {
                return;
            }
            byte[] stored = withHeader(segmentId, content);
            try {
                store(layout.segmentsPreparedBefore(agentId), target, stored);
            } catch (NoSuchFileException e) {
                store(layout.prepareSegments(agentId), target, stored); // a directory was removed meanwhile
            }
            Files.setLastModifiedTime(target, now);
            files.syncDirectory(paths.segments());
        } catch (IOException e) {
            throw IoFailures.unavailable("write history segment", target, e);
        }
    }

    /** The stored bytes of the given segments that exist. */
    public Map<String, byte[]> get(String agentId, Collection<String> segmentIds) {
        AgentPaths paths = layout.agent(agentId);
        var found = new HashMap<String, byte[]>();
        for (String segmentId : segmentIds) {
            Path file = paths.segmentFile(segmentId);
            try {
                byte[] stored = Files.readAllBytes(file);
                found.put(segmentId, content(agentId, segmentId, file, stored));
            } catch (NoSuchFileException e) {
                // not stored
            } catch (IOException e) {
                throw IoFailures.unavailable("read history segment", file, e);
            }
        }
        return found;
    }

    /** The agent's segments with their write times, sorted by id. */
    public List<SegmentInfo> list(String agentId) {
        AgentPaths paths = layout.agent(agentId);
        var infos = new ArrayList<SegmentInfo>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(paths.segments())) {
            for (Path file : stream) {
                String name = file.getFileName().toString();
                if (FileNames.isScratch(name)) {
                    continue;
                }
                Optional<String> id = idOf(agentId, file, name);
                var attributes = files.attributes(file);
                if (id.isPresent() && attributes.isPresent()) {
                    infos.add(new SegmentInfo(
                            id.get(), attributes.get().lastModifiedTime().toInstant()));
                }
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            return List.of();
        } catch (IOException e) {
            throw IoFailures.unavailable("list history segments in", paths.segments(), e);
        } catch (DirectoryIteratorException e) {
            throw IoFailures.unavailable("list history segments in", paths.segments(), e.getCause());
        }
        infos.sort(Comparator.comparing(SegmentInfo::segmentId));
        return infos;
    }

    /** Deletes the given segments last written before {@code writtenBefore}; returns their ids. */
    public Set<String> delete(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
        AgentPaths paths = layout.agent(agentId);
        var deleted = new HashSet<String>();
        try {
            for (String segmentId : segmentIds) {
                if (deleteIfOlder(paths, paths.segmentFile(segmentId), writtenBefore)) {
                    deleted.add(segmentId);
                }
            }
            if (!deleted.isEmpty()) {
                files.syncDirectory(paths.segments());
            }
        } catch (IOException e) {
            throw IoFailures.unavailable("delete history segments in", paths.segments(), e);
        }
        return deleted;
    }

    /** Whether the agent directory holds at least one segment (stops at the first). */
    public boolean hasSegments(Path agentDirectory) throws IOException {
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(
                agentDirectory.resolve(FileNames.SEGMENTS_DIRECTORY),
                path -> !FileNames.isScratch(path.getFileName().toString()))) {
            return stream.iterator().hasNext();
        } catch (NoSuchFileException | NotDirectoryException e) {
            return false;
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
    }

    /** Writes a temporary file in the agent directory, forces it and links it as {@code target} unless that exists. */
    private void store(AgentPaths paths, Path target, byte[] stored) throws IOException {
        Path temp = files.writeTemp(paths.directory(), stored);
        try {
            files.linkIfAbsent(target, temp);
        } finally {
            files.deleteQuietly(temp);
        }
    }

    private boolean touch(Path target, FileTime now) throws IOException {
        try {
            Files.setLastModifiedTime(target, now);
            return true;
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    private boolean deleteIfOlder(AgentPaths paths, Path file, Instant writtenBefore) throws IOException {
        var seen = files.attributes(file);
        if (seen.isEmpty() || !seen.get().lastModifiedTime().toInstant().isBefore(writtenBefore)) {
            return false;
        }
        Path trash = paths.directory().resolve(FileNames.TRASH_PREFIX + WriterProcess.unique());
        try {
            Files.move(file, trash, StandardCopyOption.ATOMIC_MOVE);
        } catch (NoSuchFileException e) {
            return false;
        }
        var moved = files.attributes(trash);
        if (moved.isPresent() && !moved.get().lastModifiedTime().toInstant().isBefore(writtenBefore)) {
            files.linkIfAbsent(file, trash); // written again meanwhile: put it back unless rewritten already
            files.deleteQuietly(trash);
            return false;
        }
        files.deleteIfExists(trash);
        return true;
    }

    private Optional<String> idOf(String agentId, Path file, String name) throws IOException {
        if (!FileNames.isHashed(name)) {
            return FileNames.decode(name);
        }
        try {
            byte[] stored = Files.readAllBytes(file);
            int newline = indexOfNewline(stored);
            return newline < 0
                    ? Optional.empty()
                    : Optional.of(new String(stored, 0, newline, StandardCharsets.UTF_8))
                            .filter(id -> FileNames.encode(id).equals(name));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    private static byte[] withHeader(String segmentId, byte[] content) {
        byte[] id = (segmentId + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] stored = Arrays.copyOf(id, id.length + content.length);
        System.arraycopy(content, 0, stored, id.length, content.length);
        return stored;
    }

    private static byte[] content(String agentId, String segmentId, Path file, byte[] stored) {
        int newline = indexOfNewline(stored);
        if (newline < 0 || !new String(stored, 0, newline, StandardCharsets.UTF_8).equals(segmentId)) {
            throw new CorruptCheckpointException(
                    agentId, null, file.toString(), "the file does not hold history segment '" + segmentId + "'", null);
        }
        return Arrays.copyOfRange(stored, newline + 1, stored.length);
    }

    private static int indexOfNewline(byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
