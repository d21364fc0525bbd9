package dev.agentpersistence.file.internal;

import dev.agentpersistence.AgentCheckpoint;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalInt;

/**
 * What a writer found at an id entry it could not create.
 *
 * @param stored     the document behind the entry
 * @param published  whether the checkpoint file of {@code stored.version()} is the same file (the
 *                   save completed); an unpublished entry is a save in progress or left by a crash
 * @param attributes the entry's attributes when inspected, to remove exactly that file
 * @param linkCount  how many names the file has, where the file system tells
 */
record IdReservation(AgentCheckpoint stored, boolean published, BasicFileAttributes attributes, OptionalInt linkCount) {

    /**
     * Whether an unpublished entry belongs to no live writer: it has no other name (a writer keeps
     * its temporary file until it has published), or it is older than the grace period.
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
}
