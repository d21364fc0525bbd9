package dev.agentpersistence.file.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The head file of an agent, {@code <agent>/.head}: lets {@code getLatestCheckpoint} answer with
 * one small read and one checkpoint read instead of listing the agent directory. It holds the boot
 * id of the host that wrote it, {@code latest} (a version, "none" or "unknown") and the saves in
 * flight ({@code writer} lines: process identity as in {@link WriterProcess}, a per-save token, the
 * version, the time it registered). Format: {@link HeadFormat}.
 *
 * <h2>Protocol</h2>
 * The head is only ever replaced whole (temporary file, then atomic rename; not forced to disk),
 * and only while holding {@link HeadLock} (an advisory lock on {@code <agent>/.head.lock}, also
 * serialised inside the JVM).
 * <ol>
 *   <li><b>Register</b> (a save, after reserving its id, before publishing): under the lock, add
 *       its {@code writer} line. If the head does not know the latest version and lists no writer
 *       (a new agent; a head lost or invalidated), this is also a rebuild (step 5) in which the
 *       save's own temporary file does not count — so a new agent's head is known from its first
 *       save on.</li>
 *   <li>Publish as before ({@link CheckpointWriter}).</li>
 *   <li><b>Finish</b> (after publishing, also after a failure; the save's temporary file still
 *       exists): under the lock, remove its line; if {@code <version>.checkpoint} exists and
 *       {@code latest} is known, set {@code latest = max(latest, version)}.</li>
 *   <li><b>Invalidate</b> (a deletion that removes the highest listed version, before deleting):
 *       under the lock, set {@code latest = unknown}, keeping the writers.</li>
 *   <li><b>Rebuild</b> (a reader that found the head unusable, only if the lock is free right now):
 *       under the lock, drop abandoned writers; if none is left and the agent directory holds no
 *       temporary file of a save that may be running, list the directory and write
 *       {@code latest = } the highest version ("none" if there is none).</li>
 * </ol>
 * Abandoned writers — their process is known dead ({@link WriterProcess#isKnownDead()}) or they
 * registered longer than the grace period ago, the same rule as for abandoned id reservations —
 * are dropped by every change under the lock; when the version of a dropped writer exists, it is
 * folded into {@code latest} like in step 3 (the writer may have died after publishing).
 *
 * <p>A reader takes no lock. It <b>trusts</b> a head only if it parses (checksum included), was
 * written in the current boot, lists no writer, and {@code latest} is known; it then answers
 * "none", or reads {@code <latest>.checkpoint} — if that file is missing, it lists the directory.
 * Anything else (no head, garbled, another boot, writers listed, unknown) makes it list the
 * directory as before, and rebuild the head unless a writer listed is still running.
 *
 * <h2>Why a trusted head is right</h2>
 * Claim: whenever the head lists no writer and {@code latest} is known, every existing checkpoint
 * file has a version {@code <= latest}. With the reader's check that {@code <latest>.checkpoint}
 * exists, {@code latest} is then the highest version.
 * <ul>
 *   <li>A version file is only created by a save, and only after that save's register step has
 *       renamed in a head listing it (in this boot the rename precedes the link in the file
 *       system's order). From then until its finish step, every head lists it — every other change
 *       is a read-modify-write under the lock that keeps other writers, and the invalidation keeps
 *       them too — so a reader sees "writers in flight" and lists the directory. The finish step
 *       folds the version into {@code latest} if its file exists then; if it does not, it was never
 *       published or was undone, and cannot appear later (the save is over).</li>
 *   <li>{@code latest} only grows ({@code max}) except: invalidation (unknown: not trusted) and
 *       rebuild, which writes the highest version of a listing taken under the lock with no writer
 *       in flight: a save can only publish after registering, which waits for the lock, so nothing
 *       unlisted can be published before the rebuild is visible. Saves whose registration was lost
 *       (a head garbled or deleted from outside) still have their temporary file, and a rebuild
 *       refuses to run while a temporary file of a possibly running save exists.</li>
 *   <li>Lower version finishing last: {@code max} keeps the higher one. Two writers of one version:
 *       two lines with their own tokens; both fold in the existing file.</li>
 *   <li>Deletions lower the real maximum only by deleting the highest version they listed, and
 *       those invalidate first. A rebuild racing with the deletion may name a version deleted just
 *       after — the reader finds its file missing and lists. Deleting lower versions changes
 *       nothing the head claims.</li>
 *   <li>A process killed between register and finish leaves its line: readers list the directory
 *       until it is known dead (at once on this host) or the grace period has passed, and the next
 *       change under the lock drops it, folding in its version if it got published.</li>
 *   <li>Power loss or kernel crash: nothing of the head is forced to disk, so after a restart it may
 *       be old, lost or garbled, and a link may be durable while the rename before it is not. The
 *       boot id changes with every restart (Linux {@code /proc/sys/kernel/random/boot_id}), and a
 *       head of another boot is never trusted: the first change rewrites it with {@code latest =
 *       unknown}, the first reader rebuilds it. Where the boot id is not known, the register step
 *       forces the agent directory to disk after the rename (when fsync is on), so the rename is
 *       durable before the link. A head whose content was lost fails the checksum.</li>
 * </ul>
 * A reader's answer is linearisable at the moment it read the head, exactly like the listing it
 * replaces is at the moment of the listing. A head that is garbled, oversized, of another format or
 * unreadable is never an error to the caller: it only costs a listing.
 */
public final class AgentHead {
    private static final Logger LOG = LoggerFactory.getLogger(AgentHead.class);
    private static final String UNKNOWN_BOOT = HeadFormat.UNKNOWN_HOST;

    private final FileLayout layout;
    private final DurableFiles files;
    private final Clock clock;
    private final Duration gracePeriod;
    private final Path realRoot;
    private final String boot;
    private final Optional<WriterProcess> self = WriterProcess.current();
    private final WriterLiveness liveness = new WriterLiveness();

    /**
     * @param realRoot the real path of the root ({@link Path#toRealPath}): names the in-JVM lock
     *                 monitor, so instances that reach the root through different paths share it
     */
    public AgentHead(FileLayout layout, DurableFiles files, Clock clock, Duration gracePeriod, Path realRoot) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.files = Objects.requireNonNull(files, "files");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.gracePeriod = Objects.requireNonNull(gracePeriod, "gracePeriod");
        this.realRoot = Objects.requireNonNull(realRoot, "realRoot");
        this.boot = BootId.read().orElse(UNKNOWN_BOOT);
    }

    /**
     * A save's entry in the head, to hand back to {@link #finish}.
     *
     * @param token   the entry's token
     * @param version the version being saved
     */
    public record Registration(String token, long version) {
    }

    /** What the head tells a reader. */
    public record Reading(Kind kind, long latest) {
        /** Whether the head may be used. */
        public boolean trusted() {
            return kind == Kind.TRUSTED;
        }

        /** Whether the agent has no checkpoint at all (trusted readings only). */
        public boolean none() {
            return latest == HeadState.NONE;
        }
    }

    /** How far the head can be used. */
    public enum Kind {
        /** No writer in flight, {@code latest} known, this boot. */
        TRUSTED,
        /** A writer that may be running is in flight: list, and leave the head alone. */
        BUSY,
        /** Missing, garbled, of another boot, unknown or only abandoned writers: list, then rebuild. */
        STALE
    }

    /**
     * Step 1: registers a save of {@code version}; the head then lists it until {@link #finish}. When
     * the head does not know the latest version and no other save is registered (a new agent, or a
     * head lost or invalidated), this is also a rebuild (step 5) in which {@code ownTemp}, the
     * save's own temporary file, does not count as a save in flight.
     */
    public Registration register(AgentPaths paths, long version, Path ownTemp) throws IOException {
        var writer = self.map(process -> newWriter(process.host(), process.pid(), process.startMillis(), version))
                .orElseGet(() -> newWriter(HeadFormat.UNKNOWN_HOST, 0, 0, version));
        withLock(paths, () -> {
            HeadState head = forUpdate(paths);
            if (!head.latestKnown() && head.writers().isEmpty()) {
                head = listed(paths, head, ownTemp);
            }
            files.replace(paths.head(), HeadFormat.format(head.withWriter(writer)));
            return Boolean.TRUE;
        });
        if (boot.equals(UNKNOWN_BOOT)) {
            // no boot id to discard this head after a crash: make the rename durable before the link
            files.syncDirectory(paths.directory());
        }
        return new Registration(writer.token(), writer.version());
    }

    /**
     * Step 3: removes the save's entry and folds its version into {@code latest} if the version file
     * exists. Never throws: a failure leaves the entry, which only makes readers list until it is
     * judged abandoned.
     */
    public void finish(AgentPaths paths, Registration registration) {
        try {
            withLock(paths, () -> {
                HeadState head = forUpdate(paths).without(w -> w.token().equals(registration.token()));
                files.replace(paths.head(), HeadFormat.format(folded(paths, head, registration.version())));
                return Boolean.TRUE;
            });
        } catch (IOException | RuntimeException e) {
            LOG.warn("Could not update the head file {}; latest-checkpoint reads list the directory until the entry"
                    + " of this save is judged abandoned: {}", paths.head(), e.toString());
        }
    }

    /** Step 4: before a deletion that may remove the latest version; readers list until a rebuild. */
    public void invalidate(AgentPaths paths) throws IOException {
        if (!Files.isDirectory(paths.directory(), LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        withLock(paths, () -> {
            files.replace(paths.head(), HeadFormat.format(forUpdate(paths).withLatest(HeadState.UNKNOWN)));
            return Boolean.TRUE;
        });
    }

    /** Reads the head without locking; never throws. */
    public Reading read(AgentPaths paths) {
        Optional<HeadState> parsed = readHead(paths);
        if (parsed.isEmpty() || !parsed.get().boot().equals(boot)) {
            return new Reading(Kind.STALE, HeadState.UNKNOWN);
        }
        HeadState head = parsed.get();
        if (!head.writers().isEmpty()) {
            Instant now = clock.instant();
            boolean running = head.writers().stream().anyMatch(writer -> !abandoned(writer, now));
            return new Reading(running ? Kind.BUSY : Kind.STALE, HeadState.UNKNOWN);
        }
        return head.latestKnown() ? new Reading(Kind.TRUSTED, head.latest()) : new Reading(Kind.STALE, head.latest());
    }

    /**
     * Step 5: if the lock is free right now, lists the agent directory under it and — when no save
     * may be in flight — writes a head naming the highest version. Returns the versions listed
     * (ascending), or empty when the lock was busy or the agent has no directory; the caller then
     * lists by itself.
     */
    public Optional<long[]> rebuild(AgentPaths paths) throws IOException {
        if (!Files.isDirectory(paths.directory(), LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        return HeadLock.ifFree(paths.headLock(), realLockFile(paths), () -> {
            HeadState head = forUpdate(paths);
            var temps = new ArrayList<Path>();
            long[] versions = layout.versions(paths, temps);
            if (head.writers().isEmpty() && noSaveRunning(temps, null)) {
                files.replace(paths.head(), HeadFormat.format(new HeadState(boot, highest(versions), List.of())));
            }
            return versions;
        });
    }

    /** Under the lock, with no writer registered: {@code head} with the latest version listed, when no save may be in flight. */
    private HeadState listed(AgentPaths paths, HeadState head, Path ownTemp) throws IOException {
        var temps = new ArrayList<Path>();
        long[] versions = layout.versions(paths, temps);
        return noSaveRunning(temps, ownTemp) ? head.withLatest(highest(versions)) : head;
    }

    private static long highest(long[] ascending) {
        return ascending.length == 0 ? HeadState.NONE : ascending[ascending.length - 1];
    }

    private HeadState.Writer newWriter(String host, long pid, long startMillis, long version) {
        String token = Long.toHexString(ThreadLocalRandom.current().nextLong());
        return new HeadState.Writer(host, pid, startMillis, token, version, clock.millis());
    }

    /**
     * The head as a base for a change: a missing or garbled head, or one of another boot, has
     * {@code latest = unknown}; abandoned writers are dropped, their published versions folded in.
     */
    private HeadState forUpdate(AgentPaths paths) throws IOException {
        HeadState head = readHead(paths)
                .map(found -> found.boot().equals(boot) ? found
                        : new HeadState(boot, HeadState.UNKNOWN, found.writers()))
                .orElseGet(() -> new HeadState(boot, HeadState.UNKNOWN, List.of()));
        Instant now = clock.instant();
        for (HeadState.Writer writer : head.writers()) {
            if (abandoned(writer, now)) {
                head = folded(paths, head.without(w -> w.token().equals(writer.token())), writer.version());
            }
        }
        return head;
    }

    /** {@code head} with {@code version} folded into a known {@code latest} if its file exists. */
    private static HeadState folded(AgentPaths paths, HeadState head, long version) {
        if (!head.latestKnown() || !Files.exists(paths.versionFile(version), LinkOption.NOFOLLOW_LINKS)) {
            return head;
        }
        return head.withLatest(Math.max(head.latest(), version));
    }

    private boolean abandoned(HeadState.Writer writer, Instant now) {
        if (Instant.ofEpochMilli(writer.sinceMillis()).plus(gracePeriod).isBefore(now)) {
            return true;
        }
        return writer.process().map(liveness::isKnownDead).orElse(false);
    }

    /** Whether none of the temporary files (but {@code ownTemp}) may belong to a save that is still running. */
    private boolean noSaveRunning(List<Path> temps, Path ownTemp) throws IOException {
        Instant cutoff = clock.instant().minus(gracePeriod);
        for (Path temp : temps) {
            if (temp.equals(ownTemp)) {
                continue;
            }
            var attributes = files.attributes(temp);
            if (attributes.isEmpty()) {
                continue; // gone meanwhile
            }
            boolean old = attributes.get().lastModifiedTime().toInstant().isBefore(cutoff);
            boolean dead = WriterProcess.ofTempName(temp.getFileName().toString())
                    .filter(liveness::isKnownDead).isPresent();
            if (!old && !dead) {
                return false;
            }
        }
        return true;
    }

    private Optional<HeadState> readHead(AgentPaths paths) {
        try (InputStream in = Files.newInputStream(paths.head(), LinkOption.NOFOLLOW_LINKS)) {
            return HeadFormat.parse(in.readNBytes(HeadFormat.MAX_BYTES + 1));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            LOG.debug("Unreadable head file {}: {}", paths.head(), e.toString());
            return Optional.empty();
        }
    }

    private <T> T withLock(AgentPaths paths, HeadLock.Action<T> action) throws IOException {
        return HeadLock.withLock(paths.headLock(), realLockFile(paths), action);
    }

    private String realLockFile(AgentPaths paths) {
        return realRoot.resolve(paths.directory().getFileName()).resolve(FileNames.HEAD_LOCK_FILE).toString();
    }
}
