package dev.agentpersistence.cli.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.SaveResult;
import dev.agentpersistence.cli.CliException;
import dev.agentpersistence.cli.ExitCode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Copies the checkpoints a {@link Selection} takes from one store to another, page by page, and checks the target holds
 * the same checkpoints: every checkpoint of the target in the selection is read once and compared with the source's
 * checkpoint of that version, whether this run wrote it or found it there.
 *
 * <p>Several agents are copied at a time (each by one thread), so that a store with per-commit latency (a database
 * waiting for its disk) is kept busy; memory stays bounded by one page per thread.
 *
 * <p>Resumable without any state of its own: for each page of the source the target's checkpoints of those versions are
 * read first, and only the missing ones are saved. A second run after an interruption therefore saves only what the
 * first did not, and never writes a checkpoint twice (saving is idempotent anyway; a different checkpoint under the
 * same version is a conflict). The missing checkpoints of a page are saved with one batch save
 * ({@code saveCheckpoints}), and the page's versions are then read back from the target.
 *
 * <p>The target's versions are covered without gaps: a page of the source, newest first, is checked against the
 * target's checkpoints from the page's lowest version up to the newer page's lowest (or without bound for the newest
 * page), and the target's checkpoints below the oldest page are looked for at the end, so a checkpoint only the target
 * has is found too.
 */
public final class Copier {
    /** The outcome of a copy. */
    public record Result(int agents, long checkpoints, long copied, long alreadyThere, List<String> mismatches) {
        /** Whether the target matched the source for every agent. */
        public boolean verified() {
            return mismatches.isEmpty();
        }
    }

    /** What the target held of an agent's selected checkpoints, against the source's. */
    private record Tally(long source, long target, boolean differs) {
        boolean matches() {
            return source == target && !differs;
        }
    }

    /** The running comparison of one agent, page by page. */
    private static final class Comparison {
        private long source;
        private long target;
        private boolean differs;

        /**
         * Compares {@code page} of the source with {@code found}, the target's checkpoints of the page's version range.
         */
        void add(List<AgentCheckpoint> page, List<AgentCheckpoint> found) {
            Map<Long, AgentCheckpoint> byVersion = new HashMap<>(found.size() * 2);
            found.forEach(checkpoint -> byVersion.put(checkpoint.version(), checkpoint));
            for (AgentCheckpoint checkpoint : page) {
                differs |= !checkpoint.equals(byVersion.get(checkpoint.version()));
            }
            source += page.size();
            target += found.size();
        }

        Tally tally() {
            return new Tally(source, target, differs);
        }
    }

    private final Store from;
    private final Store to;
    private final Selection selection;
    private final Progress progress;
    private final int threads;

    /**
     * A copy of {@code selection} from {@code from} to {@code to}, counting on {@code progress}, with {@code threads}
     * agents copied at a time (each agent's checkpoints by one thread, page by page).
     */
    public Copier(Store from, Store to, Selection selection, Progress progress, int threads) {
        this.from = Objects.requireNonNull(from, "from");
        this.to = Objects.requireNonNull(to, "to");
        this.selection = Objects.requireNonNull(selection, "selection");
        this.progress = Objects.requireNonNull(progress, "progress");
        if (threads < 1 || threads > 64) {
            throw CliException.usage("--threads must be 1 to 64 but was " + threads);
        }
        this.threads = threads;
    }

    /** Copies, then verifies. */
    public Result copy() {
        List<String> agents = selection.agentsIn(from);
        progress.start("checkpoints", total(agents));
        Map<String, Tally> tallies = new ConcurrentHashMap<>();
        var counts = new AtomicLong[] {new AtomicLong(), new AtomicLong(), new AtomicLong()};
        forEachAgent(agents, agentId -> {
            var comparison = new Comparison();
            Long[] above = {null};
            from.pages(agentId, selection.filter(), page -> {
                comparison.add(page, copyPage(agentId, page, above[0], counts));
                above[0] = page.get(0).version();
                return true;
            });
            comparison.add(List.of(), targetBelow(agentId, above[0]));
            tallies.put(agentId, comparison.tally());
        });
        progress.finish();
        var mismatches = new ArrayList<String>();
        for (String agentId : agents) {
            Tally tally = tallies.get(agentId);
            if (!tally.matches()) {
                long target = countInTarget(agentId);
                mismatches.add(agentId + ": source has " + tally.source() + " checkpoints, target " + target
                        + (tally.source() == target ? " with different content" : ""));
            }
        }
        return new Result(agents.size(), counts[0].get(), counts[1].get(), counts[2].get(), List.copyOf(mismatches));
    }

    /**
     * Runs {@code work} for every agent on {@link #threads} threads; the first failure is rethrown after the others
     * stop.
     */
    private void forEachAgent(List<String> agents, Consumer<String> work) {
        if (threads == 1) {
            agents.forEach(work);
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "copy");
            thread.setDaemon(true);
            return thread;
        });
        try {
            var futures = new ArrayList<Future<?>>();
            for (String agentId : agents) {
                futures.add(pool.submit(() -> work.accept(agentId)));
            }
            for (Future<?> future : futures) {
                try {
                    future.get();
                } catch (ExecutionException e) {
                    futures.forEach(other -> other.cancel(true));
                    if (e.getCause() instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    throw new IllegalStateException(e.getCause());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCode.FAILURE, "copy interrupted");
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Saves the checkpoints of {@code page} the target does not hold, and returns the target's checkpoints from the
     * page's lowest version to below {@code above} (without bound when {@code null}), read after the save.
     */
    private List<AgentCheckpoint> copyPage(
            String agentId, List<AgentCheckpoint> page, Long above, AtomicLong[] counts) {
        List<AgentCheckpoint> found = targetRange(agentId, page, above);
        Map<Long, String> present = new HashMap<>();
        found.forEach(checkpoint -> present.put(checkpoint.version(), checkpoint.checkpointId()));
        var missing = new ArrayList<AgentCheckpoint>(page.size());
        for (AgentCheckpoint checkpoint : page) {
            counts[0].incrementAndGet();
            if (checkpoint.checkpointId().equals(present.get(checkpoint.version()))) {
                counts[2].incrementAndGet();
            } else {
                missing.add(checkpoint);
            }
        }
        for (SaveResult result : to.provider().saveCheckpoints(missing)) {
            if (result.conflict().isPresent()) {
                throw result.conflict().get();
            }
            counts[1].incrementAndGet();
        }
        progress.advance(page.size());
        return missing.isEmpty() ? found : targetRange(agentId, page, above);
    }

    /**
     * The target's selected checkpoints from {@code page}'s lowest version to below {@code above}; one more than the
     * page holds at most, which is enough to tell the target holds more.
     */
    private List<AgentCheckpoint> targetRange(String agentId, List<AgentCheckpoint> page, Long above) {
        long lowest = page.get(0).version();
        List<AgentCheckpoint> found = to.provider()
                .getCheckpoints(
                        agentId,
                        selection.filter().toBuilder()
                                .maxVersion(above == null ? null : above - 1)
                                .limit(page.size() + 1)
                                .build());
        int start = 0;
        while (start < found.size() && found.get(start).version() < lowest) {
            start++;
        }
        return found.subList(start, found.size());
    }

    /**
     * The target's newest selected checkpoint below {@code lowest} (the oldest page's lowest version, or {@code null}
     * when the source had none), if there is one: a checkpoint the source does not have.
     */
    private List<AgentCheckpoint> targetBelow(String agentId, Long lowest) {
        if (lowest != null && lowest == 0) {
            return List.of();
        }
        return to.provider()
                .getCheckpoints(
                        agentId,
                        selection.filter().toBuilder()
                                .maxVersion(lowest == null ? null : lowest - 1)
                                .limit(1)
                                .build());
    }

    /**
     * How many selected checkpoints the target holds for the agent (the pages compared stop counting at one more than
     * the source's page).
     */
    private long countInTarget(String agentId) {
        long[] count = {0};
        to.pages(agentId, selection.filter(), page -> {
            count[0] += page.size();
            return true;
        });
        return count[0];
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
