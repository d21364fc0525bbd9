package dev.agentpersistence.file.internal;

import dev.agentpersistence.backend.NewestFirstWalk;
import dev.agentpersistence.backend.StoredDocument;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers reads from the directory listing. Versions come from the sorted file names; {@code maxVersion} cuts the
 * listing and a {@code limit} stops the walk. The latest checkpoint usually needs no listing: see {@link #latest} and
 * {@link AgentHead}.
 *
 * <p>A walk never misses a checkpoint because of a concurrent deletion: when a listed file is gone before anything was
 * returned, the directory is listed again (a deletion of older versions happens after the newer version was published,
 * so the new listing holds it).
 */
public final class CheckpointQuery {
    /** Listings a walk may take while every file it tries has just been deleted. */
    private static final int MAX_LISTINGS = 64;

    private final FileLayout layout;
    private final DurableFiles files;
    private final CheckpointReader reader;
    private final AgentHead head;
    private final boolean readOnly;

    public CheckpointQuery(FileLayout layout, DurableFiles files, CheckpointReader reader, AgentHead head) {
        this(layout, files, reader, head, false);
    }

    /** Queries that, when {@code readOnly}, never rebuild a head file: they list the directory instead. */
    public CheckpointQuery(
            FileLayout layout, DurableFiles files, CheckpointReader reader, AgentHead head, boolean readOnly) {
        this.readOnly = readOnly;
        this.layout = Objects.requireNonNull(layout, "layout");
        this.files = Objects.requireNonNull(files, "files");
        this.reader = Objects.requireNonNull(reader, "reader");
        this.head = Objects.requireNonNull(head, "head");
    }

    /** Up to {@code limit} checkpoints with a version up to {@code maxVersion} ({@code null}: all), ascending. */
    public List<StoredDocument> find(String agentId, Long maxVersion, int limit) {
        return new Walk(layout.agent(agentId), maxVersion, null).newestAscending(limit);
    }

    /**
     * The checkpoint with the highest version up to {@code maxVersion}. When the agent's head file can be trusted
     * ({@link AgentHead}), the highest version is known without listing; otherwise, and whenever the head cannot be
     * used, the directory is listed — and the head rebuilt when no save is in flight.
     */
    public Optional<StoredDocument> latest(String agentId, Long maxVersion) {
        AgentPaths paths = layout.agent(agentId);
        AgentHead.Reading reading = head.read(paths);
        boolean rebuild = !reading.trusted();
        if (reading.trusted()) {
            // File.exists: a plain stat, where Files.exists pays for an exception when the file is missing
            if (reading.latest() < Long.MAX_VALUE
                    && paths.versionFile(reading.latest() + 1).toFile().exists()) {
                // the next version exists but the head does not know it: written by a writer that does
                // not keep the head (an older version of this module), or put there by hand
                rebuild = true;
            } else if (reading.none()) {
                return Optional.empty();
            } else if (maxVersion == null || reading.latest() <= maxVersion) {
                Optional<StoredDocument> newest = reader.version(paths, reading.latest());
                if (newest.isPresent()) {
                    return newest;
                }
                rebuild = true; // deleted meanwhile
            }
        }
        long[] versions = rebuild ? rebuilt(paths) : null;
        var walk = new Walk(paths, maxVersion, versions);
        return walk.hasNext() ? Optional.of(walk.next()) : Optional.empty();
    }

    /** The agent's checkpoints up to {@code maxVersion}, newest first, read as the caller advances. */
    public Iterator<StoredDocument> newestFirst(String agentId, Long maxVersion) {
        return new Walk(layout.agent(agentId), maxVersion, null);
    }

    /**
     * The checkpoint behind an id entry: one read, and one check that the checkpoint file of its version is the same
     * file (a reservation whose save has not completed is not visible).
     */
    public Optional<StoredDocument> byId(String agentId, String checkpointId) {
        AgentPaths paths = layout.agent(agentId);
        Optional<StoredDocument> found = reader.idEntry(paths, checkpointId);
        if (found.isEmpty()) {
            return found;
        }
        try {
            return files.sameFile(
                            paths.idEntry(checkpointId),
                            paths.versionFile(found.get().version()))
                    ? found
                    : Optional.empty();
        } catch (IOException e) {
            throw IoFailures.unavailable("read", paths.idEntry(checkpointId), e);
        }
    }

    private long[] list(AgentPaths paths) {
        try {
            return layout.versions(paths);
        } catch (IOException e) {
            throw IoFailures.unavailable("list", paths.directory(), e);
        }
    }

    /** The listing taken while rebuilding the head; {@code null} when it was not rebuilt (the caller lists). */
    private long[] rebuilt(AgentPaths paths) {
        if (readOnly) {
            return null;
        }
        try {
            return head.rebuild(paths).orElse(null);
        } catch (IOException | RuntimeException e) {
            log().debug("Could not rebuild the head file {}: {}", paths.head(), e.toString());
            return null;
        }
    }

    /** A newest-first walk over one listing, listing again while every file it tried was deleted. */
    private final class Walk extends NewestFirstWalk {
        private final AgentPaths paths;
        private final Long maxVersion;
        private long[] versions;
        private int position;
        private int listings = 1;
        private boolean missedAny;

        Walk(AgentPaths paths, Long maxVersion, long[] listing) {
            this.paths = paths;
            this.maxVersion = maxVersion;
            this.versions = listing != null ? listing : list(paths);
            this.position = versions.length - 1;
        }

        @Override
        protected StoredDocument advance() {
            while (true) {
                if (position < 0) {
                    if (!missedAny || returnedAny() || listings >= MAX_LISTINGS) {
                        return null;
                    }
                    versions = list(paths);
                    position = versions.length - 1;
                    listings++;
                    missedAny = false;
                    continue;
                }
                long version = versions[position--];
                if (maxVersion != null && version > maxVersion) {
                    continue;
                }
                Optional<StoredDocument> read = reader.version(paths, version);
                if (read.isPresent()) {
                    return read.get();
                }
                missedAny = true;
            }
        }
    }

    /** Looked up when a line is logged: binding SLF4J takes a fresh JVM tens of milliseconds; most runs log nothing. */
    private static Logger log() {
        return LoggerFactory.getLogger(CheckpointQuery.class);
    }
}
