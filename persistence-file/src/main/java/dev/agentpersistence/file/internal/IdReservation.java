package dev.agentpersistence.file.internal;

import dev.agentpersistence.backend.StoredDocument;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a writer found at an id entry it could not create.
 *
 * @param stored the document behind the entry, with the version its content names
 * @param published whether the checkpoint file of {@code stored.version()} is the same file (the save completed); an
 *     unpublished entry is a save in progress or left by a crash
 * @param attributes the entry's attributes when inspected, to remove exactly that file
 * @param linkCount how many names the file has, where the file system tells
 */
record IdReservation(StoredDocument stored, boolean published, BasicFileAttributes attributes, OptionalInt linkCount) {

    /**
     * Whether an unpublished entry belongs to no live writer: it has no other name (a writer keeps its temporary file
     * until it has published), or it is older than the grace period. See also {@link #heldByDeadWriter}, which needs
     * the other name.
     */
    boolean abandoned(Instant now, Duration gracePeriod) {
        if (published) {
            return false;
        }
        if (linkCount.isPresent() && linkCount.getAsInt() == 1) {
            return true;
        }
        return attributes.lastModifiedTime().toInstant().isBefore(now.minus(gracePeriod));
    }

    /**
     * Whether an unpublished entry whose other name is {@code holderTemp} belongs to a writer known to be dead: the
     * temporary name records a process of this host that is no longer running (or whose PID now belongs to a process
     * started at another time). Such a writer will never publish.
     */
    static boolean heldByDeadWriter(Optional<Path> holderTemp) {
        return holderTemp
                .flatMap(temp -> WriterProcess.ofTempName(temp.getFileName().toString()))
                .filter(WriterProcess::isKnownDead)
                .isPresent();
    }
}
