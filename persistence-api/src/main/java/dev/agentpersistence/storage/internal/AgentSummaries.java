package dev.agentpersistence.storage.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.backend.AgentSummary;
import dev.agentpersistence.backend.AgentSummaryScan;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredAgentSummary;
import dev.agentpersistence.backend.StoredDocument;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The shell's summary of every agent: from the backend's {@link AgentSummaryScan} in one pass when it has one, its
 * newest documents decoded by the shell; otherwise per agent, its documents counted page by page and its latest
 * checkpoint read as {@code getLatestCheckpoint} reads it.
 */
public final class AgentSummaries {
    /** Documents per page when counting an agent's records without a scan. */
    private static final int PAGE = 500;

    private final StorageBackend backend;
    private final BiFunction<String, StoredDocument, Optional<AgentCheckpoint>> decode;
    private final Function<String, Optional<AgentCheckpoint>> latest;

    /**
     * @param backend the shell's backend
     * @param decode the stored form of a document, empty when it is corrupt and corrupt documents are skipped
     * @param latest the agent's latest checkpoint as the shell's {@code getLatestCheckpoint} reads it
     */
    public AgentSummaries(
            StorageBackend backend,
            BiFunction<String, StoredDocument, Optional<AgentCheckpoint>> decode,
            Function<String, Optional<AgentCheckpoint>> latest) {
        this.backend = backend;
        this.decode = decode;
        this.latest = latest;
    }

    /** Every agent's summary, sorted by agent id. */
    public List<AgentSummary> all() {
        Optional<AgentSummaryScan> scan = backend.agentSummaries();
        var summaries = new ArrayList<AgentSummary>();
        if (scan.isPresent()) {
            for (StoredAgentSummary stored : scan.get().summaries()) {
                // a corrupt newest document is skipped the way getLatestCheckpoint skips it: the newest readable one
                Optional<AgentCheckpoint> newest =
                        decode.apply(stored.agentId(), stored.newest()).or(() -> latest.apply(stored.agentId()));
                summaries.add(summary(stored.agentId(), stored.records(), stored.bytes(), newest));
            }
            summaries.sort(Comparator.comparing(AgentSummary::agentId));
            return List.copyOf(summaries);
        }
        for (String agentId : backend.listAgents()) {
            long[] totals = count(agentId);
            summaries.add(summary(agentId, totals[0], totals[1], latest.apply(agentId)));
        }
        return List.copyOf(summaries);
    }

    /** The agent's record count and stored bytes, read newest page first. */
    private long[] count(String agentId) {
        long records = 0;
        long bytes = 0;
        Long below = null;
        while (true) {
            List<StoredDocument> page = backend.list(
                    agentId,
                    CheckpointFilter.builder().maxVersion(below).limit(PAGE).build());
            records += page.size();
            for (StoredDocument document : page) {
                bytes += document.size();
            }
            if (page.size() < PAGE || page.get(0).version() == 0) {
                return new long[] {records, bytes};
            }
            below = page.get(0).version() - 1;
        }
    }

    private static AgentSummary summary(String agentId, long records, long bytes, Optional<AgentCheckpoint> latest) {
        return new AgentSummary(
                agentId,
                records,
                bytes,
                latest.map(checkpoint -> new AgentSummary.Latest(
                        checkpoint.version(),
                        checkpoint.checkpointId(),
                        checkpoint.nodeId(),
                        checkpoint.createdAt(),
                        checkpoint.isTombstone())));
    }
}
