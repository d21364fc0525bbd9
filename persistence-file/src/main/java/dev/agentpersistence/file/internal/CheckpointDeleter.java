package dev.agentpersistence.file.internal;

import dev.agentpersistence.CorruptCheckpointException;
import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * Deletes checkpoints: first the checkpoint files (which unpublishes them at once), then the id entries that are hard
 * links of the deleted files, found by file identity from the directory listing, without reading documents. Where the
 * file system has no file identity, the ids are read from the documents before deleting them. A deletion that removes
 * the highest version listed first invalidates the agent's head file ({@link AgentHead}), so latest-checkpoint reads
 * list the directory until the head is rebuilt.
 */
public final class CheckpointDeleter {
    private final FileLayout layout;
    private final DurableFiles files;
    private final CheckpointReader reader;
    private final AgentHead head;

    public CheckpointDeleter(FileLayout layout, DurableFiles files, CheckpointReader reader, AgentHead head) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.files = Objects.requireNonNull(files, "files");
        this.reader = Objects.requireNonNull(reader, "reader");
        this.head = Objects.requireNonNull(head, "head");
    }

    /** Deletes the agent's checkpoints whose version matches and returns how many this call removed. */
    public int delete(String agentId, LongPredicate versionMatches) {
        AgentPaths paths = layout.agent(agentId);
        try {
            return deleteMatching(paths, versionMatches);
        } catch (IOException e) {
            throw IoFailures.unavailable("delete checkpoints in", paths.directory(), e);
        }
    }

    private int deleteMatching(AgentPaths paths, LongPredicate versionMatches) throws IOException {
        var fileKeys = new HashSet<Object>();
        var entriesSeen = new HashMap<Path, BasicFileAttributes>();
        int deleted = 0;
        long[] versions = layout.versions(paths);
        if (versions.length > 0 && versionMatches.test(versions[versions.length - 1])) {
            head.invalidate(paths); // the latest version goes: readers must not trust the head until it is rebuilt
        }
        for (long version : versions) {
            if (!versionMatches.test(version)) {
                continue;
            }
            Path file = paths.versionFile(version);
            var attributes = files.attributes(file);
            if (attributes.isEmpty()) {
                continue;
            }
            if (attributes.get().fileKey() != null) {
                fileKeys.add(attributes.get().fileKey());
            } else {
                // no file identity here: learn the id from the document (a corrupt one leaves an
                // unpublished entry, which readers ignore and the next writer of that id removes)
                Optional<String> checkpointId;
                try {
                    checkpointId = reader.checkpointIdOf(paths, version);
                } catch (CorruptCheckpointException e) {
                    checkpointId = Optional.empty();
                }
                if (checkpointId.isPresent()) {
                    Path entry = paths.idEntry(checkpointId.get());
                    files.attributes(entry).ifPresent(seen -> entriesSeen.put(entry, seen));
                }
            }
            if (files.deleteIfExists(file)) {
                deleted++;
            }
        }
        if (deleted == 0 && fileKeys.isEmpty() && entriesSeen.isEmpty()) {
            return 0;
        }
        files.syncDirectory(paths.directory());
        deleteIdEntries(paths, fileKeys, entriesSeen);
        files.syncDirectory(paths.ids());
        return deleted;
    }

    private void deleteIdEntries(AgentPaths paths, Set<Object> fileKeys, Map<Path, BasicFileAttributes> entriesSeen)
            throws IOException {
        for (var seen : entriesSeen.entrySet()) {
            files.removeIfUnchanged(seen.getKey(), seen.getValue(), paths.directory());
        }
        if (fileKeys.isEmpty()) {
            return;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(paths.ids())) {
            for (Path entry : stream) {
                if (FileNames.isScratch(entry.getFileName().toString())) {
                    continue;
                }
                var attributes = files.attributes(entry);
                if (attributes.isPresent() && fileKeys.contains(attributes.get().fileKey())) {
                    files.deleteIfExists(entry);
                }
            }
        } catch (NoSuchFileException e) {
            // no id entries at all
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
    }
}
