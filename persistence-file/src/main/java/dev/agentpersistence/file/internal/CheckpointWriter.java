package dev.agentpersistence.file.internal;

import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Saves one checkpoint so that it is fully visible or not at all, also across a crash, and so that no two writers —
 * threads or processes — both win a version or a checkpoint id.
 *
 * <ol>
 *   <li>Write the document to a temporary file in the agent directory.
 *   <li>Reserve the id: hard-link the file as {@code .ids/<id>}; fails atomically if the name is taken. Readers ignore
 *       an entry until the checkpoint file of its version is the same file.
 *   <li>Fsync the file, then {@code .ids}. (Linking before forcing lets a journaling file system write the entry with
 *       the data; the directory fsync then has almost nothing left to do.)
 *   <li>Publish under the agent's head lock ({@link AgentHead#publish}): hard-link the file as
 *       {@code <version>.checkpoint}, which fails atomically if the version is taken, and fold the version into the
 *       head. Fsync the agent directory. Remove the temporary name.
 * </ol>
 *
 * A taken id or version is answered with the stored documents holding it, for the storage shell to compare (identical
 * is a no-op, different a conflict). A writer that meets another writer's unpublished reservation waits for it to
 * resolve (bounded); a reservation abandoned by a crash is removed: at once when it has no other name, or when its
 * other name is the temporary file of a writer process on this host that is no longer running ({@link WriterProcess});
 * after the grace period otherwise.
 */
public final class CheckpointWriter {
    /** Longest wait for another writer's reservation of the same id to be published or released. */
    static final Duration RESERVATION_WAIT = Duration.ofSeconds(10);

    private static final int ATTEMPTS = 3;

    private final FileLayout layout;
    private final DurableFiles files;
    private final CheckpointReader reader;
    private final Clock clock;
    private final Duration gracePeriod;
    private final AgentHead head;

    public CheckpointWriter(
            FileLayout layout,
            DurableFiles files,
            CheckpointReader reader,
            Clock clock,
            Duration gracePeriod,
            AgentHead head) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.files = Objects.requireNonNull(files, "files");
        this.reader = Objects.requireNonNull(reader, "reader");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.gracePeriod = Objects.requireNonNull(gracePeriod, "gracePeriod");
        this.head = Objects.requireNonNull(head, "head");
    }

    /**
     * Saves {@code checkpoint}; see the class documentation. Empty when the agent turned out to be kept as a journal
     * ({@link AgentJournals}): nothing was written, and the caller appends it there.
     */
    public Optional<InsertResult> save(StoredCheckpoint checkpoint) {
        String agentId = checkpoint.agentId();
        for (int attempt = 1; ; attempt++) {
            try {
                return saveOnce(
                        attempt == 1 ? layout.preparedBefore(agentId) : layout.prepare(agentId),
                        checkpoint,
                        checkpoint.document());
            } catch (NoSuchFileException e) {
                // a directory was removed under us (by hand, or by a clean-up); create it again
                if (attempt == ATTEMPTS) {
                    throw IoFailures.unavailable(
                            "save checkpoint in", layout.agent(agentId).directory(), e);
                }
            } catch (IOException e) {
                throw IoFailures.unavailable(
                        "save checkpoint in", layout.agent(agentId).directory(), e);
            }
        }
    }

    private Optional<InsertResult> saveOnce(AgentPaths paths, StoredCheckpoint checkpoint, byte[] document)
            throws IOException {
        DurableFiles.OpenTemp written = files.createTemp(paths.directory(), document);
        Path temp = written.path();
        try {
            Path entry = paths.idEntry(checkpoint.checkpointId());
            try (written) {
                Optional<StoredDocument> holder = reserveId(paths, checkpoint, entry, temp);
                if (holder.isPresent()) {
                    return Optional.of(InsertResult.clashedWith(List.of(holder.get())));
                }
                try {
                    written.force();
                } catch (IOException | RuntimeException e) {
                    releaseQuietly(entry, temp);
                    throw e;
                }
            }
            try {
                files.syncDirectory(paths.ids());
                return publish(paths, checkpoint, entry, temp);
            } catch (IOException | RuntimeException e) {
                releaseQuietly(entry, temp);
                throw e;
            }
        } finally {
            files.deleteQuietly(temp);
        }
    }

    /** Links the id entry; the stored document holding the id when another save completed with it. */
    private Optional<StoredDocument> reserveId(AgentPaths paths, StoredCheckpoint checkpoint, Path entry, Path temp)
            throws IOException {
        long deadline = System.nanoTime() + RESERVATION_WAIT.toNanos();
        long pauseMillis = 1;
        Object holderKey = null; // the file whose holder was looked up last, to list the directory once per file
        Optional<Path> holder = Optional.empty();
        while (!files.linkIfAbsent(entry, temp)) {
            Optional<IdReservation> found = inspect(paths, checkpoint.checkpointId(), entry);
            if (found.isEmpty()) {
                if (System.nanoTime() - deadline > 0) {
                    throw new CheckpointConflictException(
                            paths.agentId(),
                            checkpoint.checkpointId(),
                            checkpoint.version(),
                            "Checkpoint id '" + checkpoint.checkpointId() + "' of agent '" + paths.agentId()
                                    + "' is being saved and removed by other writers; nothing was written");
                }
                continue; // released meanwhile: try again
            }
            IdReservation reservation = found.get();
            if (reservation.published()) {
                return Optional.of(reservation.stored());
            }
            if (reservation.abandoned(clock.instant(), gracePeriod)) {
                files.removeIfUnchanged(entry, reservation.attributes(), paths.directory());
                continue;
            }
            Object key = reservation.attributes().fileKey();
            if (key == null || !key.equals(holderKey)) {
                holder = files.tempNameOf(entry, paths.directory());
                holderKey = key;
            }
            if (IdReservation.heldByDeadWriter(holder)) {
                // the writer holding it was killed before publishing: take over at once
                if (files.removeIfUnchanged(entry, reservation.attributes(), paths.directory())) {
                    files.deleteQuietly(holder.get());
                }
                holderKey = null;
                continue;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new CheckpointConflictException(
                        paths.agentId(),
                        checkpoint.checkpointId(),
                        checkpoint.version(),
                        "Checkpoint id '" + checkpoint.checkpointId() + "' of agent '" + paths.agentId()
                                + "' is being saved by another writer (at version "
                                + reservation.stored().version()
                                + "); nothing was written");
            }
            pause(pauseMillis);
            pauseMillis = Math.min(pauseMillis * 2, 50);
        }
        return Optional.empty();
    }

    private Optional<IdReservation> inspect(AgentPaths paths, String checkpointId, Path entry) throws IOException {
        var attributes = files.attributes(entry);
        if (attributes.isEmpty()) {
            return Optional.empty();
        }
        var linkCount = files.linkCount(entry);
        var stored = reader.idEntry(paths, checkpointId);
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        boolean published = files.sameFile(entry, paths.versionFile(stored.get().version()));
        return Optional.of(new IdReservation(stored.get(), published, attributes.get(), linkCount));
    }

    private Optional<InsertResult> publish(AgentPaths paths, StoredCheckpoint checkpoint, Path entry, Path temp)
            throws IOException {
        Path file = paths.versionFile(checkpoint.version());
        while (true) {
            var link = new VersionLink(paths, file, entry, temp);
            head.publish(paths, checkpoint.version(), temp, link);
            switch (link.outcome) {
                case PUBLISHED -> {
                    files.syncDirectory(paths.directory());
                    return Optional.of(InsertResult.stored());
                }
                case JOURNAL -> {
                    return Optional.empty(); // the agent's first save made it a journal meanwhile
                }
                case RESERVATION_LOST -> {
                    // our reservation was removed while we published (only a racing clean-up does that): undone
                    files.syncDirectory(paths.directory());
                    throw new CheckpointConflictException(
                            paths.agentId(),
                            checkpoint.checkpointId(),
                            checkpoint.version(),
                            "Checkpoint id '" + checkpoint.checkpointId() + "' of agent '" + paths.agentId()
                                    + "' was taken by another writer while saving; nothing was written");
                }
                default -> {
                    var stored = reader.version(paths, checkpoint.version());
                    if (stored.isEmpty()) {
                        continue; // deleted meanwhile: try again
                    }
                    // the version is taken: our id reservation is of no use either way
                    releaseOwn(entry, temp);
                    files.syncDirectory(paths.ids());
                    if (java.util.Arrays.equals(stored.get().document(), checkpoint.document())) {
                        // the same stored bytes, but its id entry was missing: restore it
                        files.linkIfAbsent(entry, file);
                        files.syncDirectory(paths.ids());
                    }
                    return Optional.of(InsertResult.clashedWith(List.of(stored.get())));
                }
            }
        }
    }

    /** What linking the version file did. */
    private enum LinkOutcome {
        PUBLISHED,
        VERSION_TAKEN,
        RESERVATION_LOST,
        JOURNAL
    }

    /** The link step a save runs under the head lock: links the version file and checks its reservation held. */
    private final class VersionLink implements AgentHead.Link {
        private final AgentPaths paths;
        private final Path file;
        private final Path entry;
        private final Path temp;
        private LinkOutcome outcome = LinkOutcome.VERSION_TAKEN;

        VersionLink(AgentPaths paths, Path file, Path entry, Path temp) {
            this.paths = paths;
            this.file = file;
            this.entry = entry;
            this.temp = temp;
        }

        @Override
        public boolean linked() throws IOException {
            if (paths.journal().toFile().exists()) {
                releaseOwn(entry, temp);
                outcome = LinkOutcome.JOURNAL;
                return false;
            }
            if (!files.linkIfAbsent(file, temp)) {
                outcome = LinkOutcome.VERSION_TAKEN;
                return false;
            }
            if (!files.sameFile(entry, file)) {
                releaseOwn(file, temp);
                outcome = LinkOutcome.RESERVATION_LOST;
                return false;
            }
            outcome = LinkOutcome.PUBLISHED;
            return true;
        }
    }

    /** Removes {@code name} if it still names this writer's file. */
    private void releaseOwn(Path name, Path temp) throws IOException {
        if (files.sameFile(name, temp)) {
            files.deleteIfExists(name);
        }
    }

    private void releaseQuietly(Path name, Path temp) {
        try {
            releaseOwn(name, temp);
        } catch (IOException | RuntimeException ignored) {
            // an entry left behind is unpublished, ignored by readers and removed by the next writer of its id
        }
    }

    private static void pause(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageUnavailableException("File storage: interrupted while waiting for another writer", e);
        }
    }
}
