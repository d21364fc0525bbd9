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
 * Copies the checkpoints a {@link Selection} takes from one store to another, page by page, and then checks the target
 * holds the same checkpoints (count and SHA-256 of their stored JSON form per agent).
 *
 * <p>Several agents are copied at a time (each by one thread), so that a store with per-commit latency (a database
 * waiting for its disk) is kept busy; memory stays bounded by one page per thread.
 *
 * <p>Resumable without any state of its own: for each page of the source the target's checkpoints of those versions are
 * read first, and only the missing ones are saved. A second run after an interruption therefore saves only what the
 * first did not, and never writes a checkpoint twice (saving is idempotent anyway; a different checkpoint under the
 * same version is a conflict). The missing checkpoints of a page are saved with one batch save
 * ({@code saveCheckpoints}).
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
    private record Tally(long count, String sha256) {}

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
        Map<String, Tally> source = new ConcurrentHashMap<>();
        var counts = new AtomicLong[] {new AtomicLong(), new AtomicLong(), new AtomicLong()};
        forEachAgent(agents, agentId -> {
            var digest = new Digest();
            long[] selected = {0};
            from.pages(agentId, selection.filter(), page -> {
                copyPage(agentId, page, counts);
                page.forEach(checkpoint -> digest.add(Json.bytes(checkpoint)));
                selected[0] += page.size();
                return true;
            });
            source.put(agentId, new Tally(selected[0], digest.hex()));
        });
        progress.finish();
        Map<String, Tally> target = new ConcurrentHashMap<>();
        forEachAgent(agents, agentId -> target.put(agentId, tally(to, agentId)));
        var mismatches = new ArrayList<String>();
        for (String agentId : agents) {
            Tally expected = source.get(agentId);
            Tally found = target.get(agentId);
            if (!expected.equals(found)) {
                mismatches.add(agentId + ": source has " + expected.count() + " checkpoints, target " + found.count()
                        + (expected.count() == found.count() ? " with different content" : ""));
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

    private void copyPage(String agentId, List<AgentCheckpoint> page, AtomicLong[] counts) {
        long highest = page.get(page.size() - 1).version();
        Map<Long, String> present = new HashMap<>();
        to.provider()
                .getCheckpoints(
                        agentId,
                        selection.filter().toBuilder()
                                .maxVersion(highest)
                                .limit(page.size())
                                .build())
                .forEach(checkpoint -> present.put(checkpoint.version(), checkpoint.checkpointId()));
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
