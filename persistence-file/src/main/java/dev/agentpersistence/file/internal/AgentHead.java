package dev.agentpersistence.file.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The head of an agent: lets {@code getLatestCheckpoint} answer with one small read, one {@code stat} and one
 * checkpoint read instead of listing the agent directory. Two files:
 *
 * <ul>
 *   <li>{@code <agent>/.head.lock} — the <b>state</b>, read and written only by holders of the advisory lock on this
 *       same file ({@link HeadLock}): the boot id of the host that wrote it, {@code latest} (a version, "none" or
 *       "unknown") and the saves of earlier releases in flight ({@code writer} lines: process identity as in
 *       {@link WriterProcess}, a per-save token, the version, the time it registered). Rewritten in place; never read
 *       without the lock, so never seen half-written.
 *   <li>{@code <agent>/.head} — what readers read, without locking: the boot id and {@code latest}. It exists only
 *       while the state lists no save in flight and knows {@code latest}. It is only ever removed, or created anew with
 *       its whole content (never rewritten), under the lock; a reader sees no file, a prefix of the content — which
 *       never parses, as the last line is the checksum of all before it — or all of it.
 * </ul>
 *
 * Format of both: {@link HeadFormat}.
 *
 * <h2>Protocol</h2>
 *
 * Every step runs under the lock.
 *
 * <ol>
 *   <li><b>Publish</b> (a save, after reserving its id and forcing its file; {@link #publish}): if the state does not
 *       know the latest version and lists no writer (a new agent; a lost or invalidated state), rebuild it first (step
 *       3), not counting the save's own temporary file — so a new agent's head is known from its first save on. Garble
 *       the state in place (one byte of its checksum), so that a process killed before the state is written again
 *       leaves a state every later step takes as {@code latest = unknown}; remove {@code .head}; link the version file
 *       ({@link CheckpointWriter}); write the state with the version folded into {@code latest} ({@code max}) if the
 *       save published it (or else if {@code <version>.checkpoint} exists); if no writer is listed, create
 *       {@code .head}.
 *   <li><b>Invalidate</b> (a deletion that removes the highest listed version, before deleting): set {@code latest =
 *       unknown}, keeping the writers; remove {@code .head}.
 *   <li><b>Rebuild</b> (a reader that found no usable {@code .head}, only if the lock is free right now): drop
 *       abandoned writers; if none is left and the agent directory holds no temporary file of a save that may be
 *       running, list the directory, set {@code latest} to the highest version ("none" if there is none) and create
 *       {@code .head}.
 * </ol>
 *
 * Saves of earlier releases published outside the lock: they added a {@code writer} line to the state before linking
 * and removed it afterwards, and {@code .head} is not created while a line is listed. The state still carries such
 * lines, so processes of both kinds can share a directory. Abandoned writers — their process is known dead
 * ({@link WriterProcess#isKnownDead()}) or they registered longer than the grace period ago, the same rule as for
 * abandoned id reservations — are dropped by every step; when the version of a dropped writer exists, it is folded into
 * {@code latest} like in step 3 (the writer may have died after publishing).
 *
 * <p>A reader <b>trusts</b> {@code .head} if it parses (checksum included) and was written in the current boot; it then
 * answers "none", or reads {@code <latest>.checkpoint} — if that file is missing, or the file of {@code latest + 1}
 * exists, it lists the directory. Without a trusted {@code .head} it lists the directory as before and tries a rebuild.
 *
 * <h2>Why a trusted head is right</h2>
 *
 * Claim: while {@code .head} exists, every existing checkpoint file has a version {@code <=} its {@code latest}. With
 * the reader's check that {@code <latest>.checkpoint} exists, {@code latest} is then the highest version.
 *
 * <ul>
 *   <li>{@code .head} is only created when the state lists no writer, with the state's {@code latest}, and every save
 *       removes it (step 1) before it creates its version file — in this boot the removal precedes the link in the file
 *       system's order. So a version file created while {@code .head} exists is impossible; a version file created
 *       earlier was either folded into {@code latest} by its save under the lock (which created the file, or sees it),
 *       or was listed by a rebuild — both before {@code .head} was created.
 *   <li>The state's {@code latest} only grows ({@code max}) except: invalidation and a save's garbling (unknown: no
 *       {@code .head} until a rebuild) and rebuild, which uses a listing taken under the lock with no writer in flight:
 *       a save publishes under the lock, and a save of an earlier release only after registering, which waits for the
 *       lock. Such saves whose registration was lost (a state garbled or deleted from outside) still have their
 *       temporary file, and a rebuild refuses to run while a temporary file of a possibly running save exists.
 *   <li>Lower version publishing last: {@code max} keeps the higher one. Two writers of one version: one links it, the
 *       other finds it taken; both fold in the existing file.
 *   <li>Deletions lower the real maximum only by deleting the highest version they listed, and those invalidate first.
 *       A rebuild racing with the deletion may name a version deleted just after — the reader finds its file missing
 *       and lists. Deleting lower versions changes nothing the head claims.
 *   <li>A process killed while publishing leaves a garbled state (and no {@code .head}): readers list, and the next
 *       save or rebuild lists under the lock; writer lines of earlier releases are lost with it, which their temporary
 *       files make up for (above). A save of an earlier release killed between its register and finish steps leaves its
 *       line: readers list until it is known dead (at once on this host) or the grace period has passed; then the next
 *       rebuild or save drops it, folding in its version if it got published.
 *   <li>Power loss or kernel crash: nothing of the head is forced to disk, so after a restart the files may be old,
 *       lost or garbled, and a link may be durable while the removal of {@code .head} before it is not. The boot id
 *       changes with every restart (Linux {@code /proc/sys/kernel/random/boot_id}); a {@code .head} or state of another
 *       boot is never trusted (the state's {@code latest} becomes unknown, its writers are dead). Where the boot id is
 *       not known, a save forces the agent directory to disk after removing {@code .head} (when fsync is on), so the
 *       removal is durable before the link. A file whose content was lost fails the checksum.
 * </ul>
 *
 * A reader's answer is linearisable at the moment it read {@code .head}, exactly like the listing it replaces is at the
 * moment of the listing. Files that are garbled, oversized, of another format or unreadable are never an error to the
 * caller: they only cost a listing.
 *
 * <p>Cost per save: one lock round trip, a one-byte and a whole write of the state, one removal and one small file
 * creation in the agent directory — no rename over an existing file, which on ext4 would make the save's directory
 * fsync also write the head's data.
 */
public final class AgentHead {

    private static final String UNKNOWN_BOOT = HeadFormat.UNKNOWN_HOST;

    private final FileLayout layout;
    private final DurableFiles files;
    private final Clock clock;
    private final Duration gracePeriod;
    private final Path realRoot;
    private final WriterLiveness liveness = new WriterLiveness();

    /**
     * @param realRoot the real path of the root ({@link Path#toRealPath}): names the in-JVM lock monitor, so instances
     *     that reach the root through different paths share it
     */
    public AgentHead(FileLayout layout, DurableFiles files, Clock clock, Duration gracePeriod, Path realRoot) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.files = Objects.requireNonNull(files, "files");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.gracePeriod = Objects.requireNonNull(gracePeriod, "gracePeriod");
        this.realRoot = Objects.requireNonNull(realRoot, "realRoot");
    }

    /** The link step of a save, run by {@link #publish} under the lock. */
    @FunctionalInterface
    public interface Link {
        /** Links the save's version file; whether this save published its version. */
        boolean linked() throws IOException;
    }

    /**
     * What {@code .head} tells a reader.
     *
     * @param trusted whether it may be used
     * @param latest the highest version, or {@link HeadState#NONE}, when trusted
     */
    public record Reading(boolean trusted, long latest) {
        /** Whether the agent has no checkpoint at all (trusted readings only). */
        public boolean none() {
            return latest == HeadState.NONE;
        }
    }

    /**
     * Step 1: publishes a save of {@code version} under the lock: {@code link} runs between the removal of
     * {@code .head} and the update of the state (see the class documentation). {@code ownTemp} is the save's own
     * temporary file. Returns what {@code link} returned; once it has run, a failure to update the state is logged, not
     * thrown (readers then list until a rebuild).
     */
    public boolean publish(AgentPaths paths, long version, Path ownTemp, Link link) throws IOException {
        return withLock(paths, state -> {
            byte[] stored = readState(state);
            HeadState head = forUpdate(paths, stored);
            if (!head.latestKnown() && head.writers().isEmpty()) {
                head = listed(paths, head, ownTemp);
            }
            garble(state, stored.length);
            files.deleteIfExists(paths.head());
            if (boot().equals(UNKNOWN_BOOT)) {
                // no boot id to discard a stale head after a crash: make the removal durable before the link
                files.syncDirectory(paths.directory());
            }
            boolean published = link.linked();
            try {
                head = published ? withVersion(head, version) : folded(paths, head, version);
                writeState(state, head, stored.length);
                writeHeadFile(paths, head);
            } catch (IOException | RuntimeException e) {
                // the link is done and must be reported as it is: the state says "unknown" meanwhile
                String problem = "Could not update the head of {}; latest-checkpoint reads list the directory until"
                        + " it is rebuilt: {}";
                log().warn(problem, paths.directory(), e.toString());
            }
            return published;
        });
    }

    /** Step 2: before a deletion that may remove the latest version; readers list until a rebuild. */
    public void invalidate(AgentPaths paths) throws IOException {
        if (!Files.isDirectory(paths.directory(), LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        withLock(paths, state -> {
            byte[] stored = readState(state);
            writeState(state, forUpdate(paths, stored).withLatest(HeadState.UNKNOWN), stored.length);
            files.deleteIfExists(paths.head());
            return Boolean.TRUE;
        });
    }

    /** Reads {@code .head} without locking; never throws. */
    public Reading read(AgentPaths paths) {
        Optional<HeadState> parsed = parse(readHead(paths));
        if (parsed.isEmpty()
                || !parsed.get().boot().equals(boot())
                || !parsed.get().writers().isEmpty()
                || !parsed.get().latestKnown()) {
            return new Reading(false, HeadState.UNKNOWN);
        }
        return new Reading(true, parsed.get().latest());
    }

    /**
     * Step 3: if the lock is free right now, lists the agent directory under it and — when no save may be in flight —
     * records the highest version and creates {@code .head}. Returns the versions listed (ascending), or empty when the
     * lock was busy or the agent has no directory; the caller then lists by itself.
     */
    public Optional<long[]> rebuild(AgentPaths paths) throws IOException {
        if (!Files.isDirectory(paths.directory(), LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        return HeadLock.ifFree(paths.headLock(), realLockFile(paths), state -> {
            byte[] stored = readState(state);
            HeadState head = forUpdate(paths, stored);
            var temps = new ArrayList<Path>();
            long[] versions = layout.versions(paths, temps);
            if (head.writers().isEmpty() && noSaveRunning(temps, null)) {
                head = head.withLatest(highest(versions));
                writeHeadFile(paths, head);
            }
            writeState(state, head, stored.length);
            return versions;
        });
    }

    /**
     * Creates {@code .head} anew from {@code head} when it lists no writer and knows the latest version, else removes
     * it. Usually there is no {@code .head} to remove (a save removed it before linking), so creating is tried first.
     */
    private void writeHeadFile(AgentPaths paths, HeadState head) throws IOException {
        if (!head.writers().isEmpty() || !head.latestKnown()) {
            files.deleteIfExists(paths.head());
            return;
        }
        byte[] content = HeadFormat.format(head);
        if (!files.createWhole(paths.head(), content)) {
            files.deleteIfExists(paths.head());
            files.createWhole(paths.head(), content);
        }
    }

    /**
     * Under the lock, with no writer registered: {@code head} with the latest version listed, when no save may be in
     * flight.
     */
    private HeadState listed(AgentPaths paths, HeadState head, Path ownTemp) throws IOException {
        var temps = new ArrayList<Path>();
        long[] versions = layout.versions(paths, temps);
        return noSaveRunning(temps, ownTemp) ? head.withLatest(highest(versions)) : head;
    }

    private static long highest(long[] ascending) {
        return ascending.length == 0 ? HeadState.NONE : ascending[ascending.length - 1];
    }

    /**
     * The state as a base for a change: a missing or garbled state, or one of another boot, has {@code latest =
     * unknown}; abandoned writers are dropped, their published versions folded in.
     */
    private HeadState forUpdate(AgentPaths paths, byte[] stored) {
        HeadState head = HeadFormat.parse(stored)
                .map(found ->
                        found.boot().equals(boot()) ? found : new HeadState(boot(), HeadState.UNKNOWN, found.writers()))
                .orElseGet(() -> new HeadState(boot(), HeadState.UNKNOWN, List.of()));
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
        return withVersion(head, version);
    }

    /** {@code head} with {@code version}, which was published, folded into a known {@code latest}. */
    private static HeadState withVersion(HeadState head, long version) {
        return head.latestKnown() ? head.withLatest(Math.max(head.latest(), version)) : head;
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
                    .filter(liveness::isKnownDead)
                    .isPresent();
            if (!old && !dead) {
                return false;
            }
        }
        return true;
    }

    private static Optional<HeadState> parse(Optional<byte[]> bytes) {
        return bytes.flatMap(HeadFormat::parse);
    }

    /** The bytes of {@code .head} (at most one more than {@link HeadFormat#MAX_BYTES}); empty when unreadable. */
    private static Optional<byte[]> readHead(AgentPaths paths) {
        try (InputStream in = Files.newInputStream(paths.head(), LinkOption.NOFOLLOW_LINKS)) {
            return Optional.of(in.readNBytes(HeadFormat.MAX_BYTES + 1));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            log().debug("Unreadable head file {}: {}", paths.head(), e.toString());
            return Optional.empty();
        }
    }

    /** The state's bytes, read through the locked channel (at most one more than {@link HeadFormat#MAX_BYTES}). */
    private static byte[] readState(FileChannel state) throws IOException {
        var buffer = ByteBuffer.allocate((int) Math.min(state.size(), HeadFormat.MAX_BYTES + 1L));
        while (buffer.hasRemaining() && state.read(buffer, buffer.position()) >= 0) {
            // read until full or at the end
        }
        return Arrays.copyOf(buffer.array(), buffer.position());
    }

    /**
     * Makes the state unparsable in place by overwriting the last digit of its checksum (see step 1); an empty state is
     * unknown already. Its length does not change.
     */
    private static void garble(FileChannel state, int length) throws IOException {
        if (length >= 2) {
            ByteBuffer dash = ByteBuffer.wrap(new byte[] {'-'});
            while (dash.hasRemaining()) {
                state.write(dash, length - 2L);
            }
        }
    }

    /**
     * Rewrites the state in place through the locked channel (only lock holders ever read it); {@code previousLength}
     * is the length read before, so a state that grew needs no truncation.
     */
    private static void writeState(FileChannel state, HeadState head, long previousLength) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(HeadFormat.format(head));
        while (buffer.hasRemaining()) {
            state.write(buffer, buffer.position());
        }
        if (buffer.limit() < previousLength) {
            state.truncate(buffer.limit());
        }
    }

    /** Runs {@code action} holding the agent's lock (waiting for it, bounded); the journal of the agent uses it too. */
    <T> T withLock(AgentPaths paths, HeadLock.Action<T> action) throws IOException {
        return HeadLock.withLock(paths.headLock(), realLockFile(paths), action);
    }

    private String realLockFile(AgentPaths paths) {
        return realRoot.resolve(paths.directory().getFileName())
                .resolve(FileNames.HEAD_LOCK_FILE)
                .toString();
    }

    /** Looked up when a line is logged: binding SLF4J takes a fresh JVM tens of milliseconds; most runs log nothing. */
    private static Logger log() {
        return LoggerFactory.getLogger(AgentHead.class);
    }

    /** This boot's id, {@code UNKNOWN_BOOT} where the platform does not tell it. */
    private static String boot() {
        return CurrentBoot.ID;
    }

    /** Holds this boot's id, read when a head is first written or judged (a journal's save reads none). */
    private static final class CurrentBoot {
        static final String ID = BootId.read().orElse(UNKNOWN_BOOT);
    }
}
