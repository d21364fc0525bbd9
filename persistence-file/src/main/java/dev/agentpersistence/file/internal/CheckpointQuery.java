package dev.agentpersistence.file.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers filtered reads from the directory listing. Versions come from the sorted file names;
 * {@code maxVersion} cuts the listing. The other fields ({@code createdAt}, {@code nodeId},
 * metadata, tombstones) live only inside the documents, so candidates are read newest first and
 * the walk stops as soon as {@code limit} matches are found: a query reads at most as many files
 * as it must look at, never the files above {@code maxVersion}, and, with only version fields and
 * a limit, exactly {@code limit} files. The latest checkpoint usually needs no listing: see
 * {@link #latest} and {@link AgentHead}.
 */
public final class CheckpointQuery {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointQuery.class);

    private final FileLayout layout;
    private final DurableFiles files;
    private final CheckpointReader reader;
    private final AgentHead head;

    public CheckpointQuery(FileLayout layout, DurableFiles files, CheckpointReader reader, AgentHead head) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.files = Objects.requireNonNull(files, "files");
        this.reader = Objects.requireNonNull(reader, "reader");
        this.head = Objects.requireNonNull(head, "head");
    }

    /** The matching checkpoints, ascending by version. */
    public List<AgentCheckpoint> find(String agentId, CheckpointFilter filter) {
        return newestFirst(agentId, filter, filter.limit() == null ? Integer.MAX_VALUE : filter.limit());
    }

    /**
     * The matching checkpoint with the highest version. When the agent's head file can be trusted
     * ({@link AgentHead}), the highest version is known without listing: the answer is its file if
     * it matches (or "none" when the agent has no checkpoint); otherwise, and whenever the head
     * cannot be used, the directory is listed as in {@link #find} — and the head rebuilt when no
     * save is in flight.
     */
    public Optional<AgentCheckpoint> latest(String agentId, CheckpointFilter filter) {
        AgentPaths paths = layout.agent(agentId);
        AgentHead.Reading reading = head.read(paths);
        boolean rebuild = !reading.trusted();
        if (reading.trusted()) {
            // File.exists: a plain stat, where Files.exists pays for an exception when the file is missing
            if (reading.latest() < Long.MAX_VALUE && paths.versionFile(reading.latest() + 1).toFile().exists()) {
                // the next version exists but the head does not know it: written by a writer that does
                // not keep the head (an older version of this module), or put there by hand
                rebuild = true;
            } else if (reading.none()) {
                return Optional.empty();
            } else if (filter.maxVersion() == null || reading.latest() <= filter.maxVersion()) {
                Optional<AgentCheckpoint> newest = reader.version(paths, reading.latest());
                if (newest.isPresent() && filter.matches(newest.get())) {
                    return newest;
                }
                // missing (deleted meanwhile: rebuild) or not matching: walk the listing
                rebuild = newest.isEmpty();
            }
        }
        long[] versions = rebuild ? rebuilt(paths) : null;
        List<AgentCheckpoint> found = newestFirst(paths, versions == null ? list(paths) : versions, filter, 1);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    /**
     * The checkpoint behind an id entry: one read, and one check that the checkpoint file of its
     * version is the same file (a reservation whose save has not completed is not visible).
     */
    public Optional<AgentCheckpoint> byId(String agentId, String checkpointId) {
        AgentPaths paths = layout.agent(agentId);
        Optional<AgentCheckpoint> found = reader.idEntry(paths, checkpointId);
        if (found.isEmpty()) {
            return found;
        }
        try {
            return files.sameFile(paths.idEntry(checkpointId), paths.versionFile(found.get().version()))
                    ? found : Optional.empty();
        } catch (IOException e) {
            throw IoFailures.unavailable("read", paths.idEntry(checkpointId), e);
        }
    }

    private List<AgentCheckpoint> newestFirst(String agentId, CheckpointFilter filter, int limit) {
        AgentPaths paths = layout.agent(agentId);
        return newestFirst(paths, list(paths), filter, limit);
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
        try {
            return head.rebuild(paths).orElse(null);
        } catch (IOException | RuntimeException e) {
            LOG.debug("Could not rebuild the head file {}: {}", paths.head(), e.toString());
            return null;
        }
    }

    private List<AgentCheckpoint> newestFirst(AgentPaths paths, long[] versions, CheckpointFilter filter, int limit) {
        var matches = new ArrayList<AgentCheckpoint>();
        for (int i = versions.length - 1; i >= 0 && matches.size() < limit; i--) {
            if (filter.maxVersion() != null && versions[i] > filter.maxVersion()) {
                continue;
            }
            reader.version(paths, versions[i]).filter(filter::matches).ifPresent(matches::add);
        }
        Collections.reverse(matches);
        return List.copyOf(matches);
    }
}
