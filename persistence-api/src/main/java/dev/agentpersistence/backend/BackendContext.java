package dev.agentpersistence.backend;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What the storage shell hands a backend once, when it opens it: the values the shell owns and the backend needs too.
 * The shell's settings declare each of them once; a backend never takes them from anywhere else.
 *
 * @param clock the clock for expiry times, segment write times and file ages
 * @param maxCheckpointSize the largest document, in bytes, a read may allocate or a save may store
 * @param ttl how long a saved checkpoint is kept, when it expires at all
 * @param skipCorrupt whether reads leave out a corrupt record with a WARN line instead of throwing
 * @param identities reads which checkpoint a stored document is, for layouts that must learn it from the bytes (it
 *     decodes the document, so a backend calls it on rare paths only)
 * @param readOnly whether the backend only reads: it creates no directory, file, table, index, key or bucket, runs no
 *     migration and writes nothing when it opens or reads, and reports a store that does not exist as a
 *     {@link dev.agentpersistence.StorageNotFoundException} naming it (at open or first use); the shell refuses every
 *     write before it reaches the backend
 */
public record BackendContext(
        Clock clock,
        long maxCheckpointSize,
        Optional<Duration> ttl,
        boolean skipCorrupt,
        DocumentIdentity identities,
        boolean readOnly) {

    /** A context for a backend that reads and writes. */
    public BackendContext(
            Clock clock,
            long maxCheckpointSize,
            Optional<Duration> ttl,
            boolean skipCorrupt,
            DocumentIdentity identities) {
        this(clock, maxCheckpointSize, ttl, skipCorrupt, identities, false);
    }

    /** @throws IllegalArgumentException for a size that is not positive or a time to live that is not */
    public BackendContext {
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(ttl, "ttl");
        Objects.requireNonNull(identities, "identities");
        if (maxCheckpointSize <= 0) {
            throw new IllegalArgumentException("maxCheckpointSize must be positive but was " + maxCheckpointSize);
        }
        if (ttl.isPresent() && (ttl.get().isZero() || ttl.get().isNegative())) {
            throw new IllegalArgumentException("ttl must be positive but was " + ttl.get());
        }
    }
}
