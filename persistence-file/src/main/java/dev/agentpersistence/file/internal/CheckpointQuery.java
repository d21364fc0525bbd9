package dev.agentpersistence.file.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Answers filtered reads from the directory listing. Versions come from the sorted file names;
 * {@code maxVersion} cuts the listing. The other fields ({@code createdAt}, {@code nodeId},
 * metadata, tombstones) live only inside the documents, so candidates are read newest first and
 * the walk stops as soon as {@code limit} matches are found: a query reads at most as many files
 * as it must look at, never the files above {@code maxVersion}, and, with only version fields and
 * a limit, exactly {@code limit} files.
 */
public final class CheckpointQuery {
    private final FileLayout layout;
    private final DurableFiles files;
    private final CheckpointReader reader;

    public CheckpointQuery(FileLayout layout, DurableFiles files, CheckpointReader reader) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.files = Objects.requireNonNull(files, "files");
        this.reader = Objects.requireNonNull(reader, "reader");
    }

    /** The matching checkpoints, ascending by version. */
    public List<AgentCheckpoint> find(String agentId, CheckpointFilter filter) {
        return newestFirst(agentId, filter, filter.limit() == null ? Integer.MAX_VALUE : filter.limit());
    }

    /** The matching checkpoint with the highest version. */
    public Optional<AgentCheckpoint> latest(String agentId, CheckpointFilter filter) {
        List<AgentCheckpoint> found = newestFirst(agentId, filter, 1);
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
        long[] versions;
        try {
            versions = layout.versions(paths);
        } catch (IOException e) {
            throw IoFailures.unavailable("list", paths.directory(), e);
        }
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
