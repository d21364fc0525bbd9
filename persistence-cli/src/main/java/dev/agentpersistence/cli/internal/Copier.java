package dev.agentpersistence.cli.internal;

import dev.agentpersistence.AgentCheckpoint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Copies the checkpoints a {@link Selection} takes from one store to another, page by page, and
 * then checks the target holds the same checkpoints (count and SHA-256 of their stored JSON form per
 * agent).
 *
 * <p>Resumable without any state of its own: for each page of the source the target's checkpoints
 * of those versions are read first, and only the missing ones are saved. A second run after an
 * interruption therefore saves only what the first did not, and never writes a checkpoint twice
 * (saving is idempotent anyway; a different checkpoint under the same version is a conflict).
 */
public final class Copier {
    /** The outcome of a copy. */
    public record Result(int agents, long checkpoints, long copied, long alreadyThere, List<String> mismatches) {
        /** Whether the target matched the source for every agent. */
        public boolean verified() {
            return mismatches.isEmpty();
        }
    }

    /** The count and digest of an agent's selected checkpoints. */
    private record Tally(long count, String sha256) {
    }

    private final Store from;
    private final Store to;
    private final Selection selection;
    private final Progress progress;

    /** A copy of {@code selection} from {@code from} to {@code to}, counting on {@code progress}. */
    public Copier(Store from, Store to, Selection selection, Progress progress) {
        this.from = Objects.requireNonNull(from, "from");
        this.to = Objects.requireNonNull(to, "to");
        this.selection = Objects.requireNonNull(selection, "selection");
        this.progress = Objects.requireNonNull(progress, "progress");
    }

    /** Copies, then verifies. */
    public Result copy() {
        List<String> agents = selection.agentsIn(from);
        progress.start("checkpoints", total(agents));
        long[] counts = new long[3];
        Map<String, Tally> source = new HashMap<>();
        for (String agentId : agents) {
            var digest = new Digest();
            long before = counts[0];
            from.pages(agentId, selection.filter(), page -> {
                copyPage(agentId, page, counts);
                page.forEach(checkpoint -> digest.add(Json.bytes(checkpoint)));
                return true;
            });
            source.put(agentId, new Tally(counts[0] - before, digest.hex()));
        }
        progress.finish();
        var mismatches = new ArrayList<String>();
        for (String agentId : agents) {
            Tally expected = source.get(agentId);
            Tally found = tally(to, agentId);
            if (!expected.equals(found)) {
                mismatches.add(agentId + ": source has " + expected.count() + " checkpoints, target " + found.count()
                        + (expected.count() == found.count() ? " with different content" : ""));
            }
        }
        return new Result(agents.size(), counts[0], counts[1], counts[2], List.copyOf(mismatches));
    }

    private void copyPage(String agentId, List<AgentCheckpoint> page, long[] counts) {
        long highest = page.get(page.size() - 1).version();
        Map<Long, String> present = new HashMap<>();
        to.provider().getCheckpoints(agentId, selection.filter().toBuilder().maxVersion(highest).limit(page.size()).build())
                .forEach(checkpoint -> present.put(checkpoint.version(), checkpoint.checkpointId()));
        for (AgentCheckpoint checkpoint : page) {
            counts[0]++;
            if (checkpoint.checkpointId().equals(present.get(checkpoint.version()))) {
                counts[2]++;
            } else {
                to.provider().saveCheckpoint(agentId, checkpoint);
                counts[1]++;
            }
        }
        progress.advance(page.size());
    }

    private Tally tally(Store store, String agentId) {
        var digest = new Digest();
        long[] count = {0};
        store.pages(agentId, selection.filter(), page -> {
            page.forEach(checkpoint -> digest.add(Json.bytes(checkpoint)));
            count[0] += page.size();
            return true;
        });
        return new Tally(count[0], digest.hex());
    }

    private long total(List<String> agents) {
        if (!progress.showsTotal() || selection.since() != null || selection.until() != null) {
            return -1;
        }
        long total = 0;
        for (String agentId : agents) {
            total += from.footprint(agentId).checkpoints();
        }
        return total;
    }
}
