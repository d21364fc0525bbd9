package dev.agentpersistence.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * 8 threads on 4 agents for a bounded time per backend, each saving the next version (read latest, save latest + 1),
 * reading (latest, filtered lists, lookups of acknowledged ids) and trimming old versions. Afterwards: no version was
 * acknowledged twice with different ids (two winners), every acknowledged save not trimmed is stored exactly, versions
 * are unique and ascending; conflicts are counted. A version freed by a trim may be taken again by a writer that read
 * "latest" before the trim (providers enforce uniqueness among stored checkpoints); that is counted, not a duplicate.
 */
class ConcurrencySoakTest {
    private static final int THREADS = 8;
    private static final int AGENTS = 4;

    private static Path dir;
    private static Backends backends;

    @BeforeAll
    static void start() throws Exception {
        dir = Ids.scratch("soak");
        backends = new Backends(dir);
    }

    @AfterAll
    static void stop() throws Exception {
        backends.close();
        Ids.delete(dir);
    }

    static List<Backend> all() {
        return backends.all();
    }

    /** What one backend's soak saw. */
    private static final class Tally {
        final ConcurrentMap<String, ConcurrentMap<Long, AgentCheckpoint>> acked = new ConcurrentHashMap<>();
        final ConcurrentMap<String, AtomicLong> trimmedBelow = new ConcurrentHashMap<>();
        final AtomicLong saves = new AtomicLong();
        final AtomicLong conflicts = new AtomicLong();
        final AtomicLong reads = new AtomicLong();
        final AtomicLong trims = new AtomicLong();
        final AtomicLong duplicates = new AtomicLong();
        final AtomicLong reusedAfterTrim = new AtomicLong();
        final List<String> duplicateSamples = new java.util.concurrent.CopyOnWriteArrayList<>();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void concurrentSavesReadsAndDeletesLoseNothingAndNeverDuplicateAVersion(Backend backend) throws Exception {
        Duration length = Scale.pick(Duration.ofSeconds(3), Duration.ofSeconds(30));
        var agents = new ArrayList<String>();
        for (int i = 0; i < AGENTS; i++) {
            agents.add(Ids.unique("soak" + i));
        }
        var tally = new Tally();
        agents.forEach(a -> {
            tally.acked.put(a, new ConcurrentHashMap<>());
            tally.trimmedBelow.put(a, new AtomicLong());
        });
        try (var storage = backend.open()) {
            Instant end = Instant.now().plus(length);
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            var futures = new ArrayList<Future<?>>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    work(storage, agents, thread, end, tally);
                    return null;
                }));
            }
            pool.shutdown();
            for (var future : futures) {
                future.get(length.toSeconds() + 120, TimeUnit.SECONDS);
            }
            assertThat(tally.duplicates.get())
                    .as("versions acknowledged to two different writers: %s", tally.duplicateSamples)
                    .isZero();
            long verified = 0;
            for (String agent : agents) {
                List<AgentCheckpoint> stored = storage.getCheckpoints(agent);
                for (int i = 1; i < stored.size(); i++) {
                    assertThat(stored.get(i).version())
                            .isGreaterThan(stored.get(i - 1).version());
                }
                var byVersion = new java.util.HashMap<Long, AgentCheckpoint>();
                stored.forEach(cp -> byVersion.put(cp.version(), cp));
                long trimmed = tally.trimmedBelow.get(agent).get();
                for (var e : tally.acked.get(agent).entrySet()) {
                    if (e.getKey() >= trimmed) {
                        assertThat(byVersion.get(e.getKey()))
                                .as("acknowledged %s v%d", agent, e.getKey())
                                .isEqualTo(e.getValue());
                        verified++;
                    }
                }
                storage.deleteCheckpoints(agent);
            }
            Figures.record(
                    "concurrency soak",
                    backend.label(),
                    THREADS + " threads x " + AGENTS + " agents for "
                            + length.toSeconds() + " s: " + tally.saves.get() + " acknowledged saves (" + verified
                            + " still stored and verified exact, the rest trimmed on purpose), " + tally.conflicts.get()
                            + " conflicts, " + tally.reads.get() + " reads, " + tally.trims.get()
                            + " trims, " + tally.reusedAfterTrim.get()
                            + " trimmed versions taken again by a stale writer;"
                            + " 0 duplicate versions, 0 lost saves");
        }
    }

    private static void work(
            PersistenceStorageProvider<CheckpointFilter> storage,
            List<String> agents,
            int thread,
            Instant end,
            Tally tally) {
        var random = new Random(thread * 7919L + System.nanoTime());
        long seq = 0;
        while (Instant.now().isBefore(end)) {
            String agent = agents.get(random.nextInt(agents.size()));
            int op = random.nextInt(100);
            if (op < 60) {
                long next = storage.getLatestCheckpoint(agent)
                        .map(AgentCheckpoint::version)
                        .map(v -> v + 1)
                        .orElse(0L);
                var checkpoint = Samples.of(agent, next).toBuilder()
                        .checkpointId("t" + thread + "-" + seq++)
                        .metadata(Map.of("writer", Integer.toString(thread), "parity", next % 2 == 0 ? "even" : "odd"))
                        .parentCheckpointId(null)
                        .build();
                try {
                    storage.saveCheckpoint(agent, checkpoint);
                    tally.saves.incrementAndGet();
                    AgentCheckpoint previous = tally.acked.get(agent).put(next, checkpoint);
                    if (previous != null && next < tally.trimmedBelow.get(agent).get()) {
                        // The first one was trimmed away; a writer that read "latest" before the trim
                        // may then take the freed version again. Allowed: uniqueness is among stored ones.
                        tally.reusedAfterTrim.incrementAndGet();
                    } else if (previous != null && !previous.checkpointId().equals(checkpoint.checkpointId())) {
                        tally.duplicates.incrementAndGet();
                        if (tally.duplicateSamples.size() < 5) {
                            tally.duplicateSamples.add(agent + " v" + next + ": " + previous.checkpointId() + " then "
                                    + checkpoint.checkpointId() + " (trimmed below "
                                    + tally.trimmedBelow.get(agent).get()
                                    + ", now stored: "
                                    + storage.getCheckpoint(agent, previous.checkpointId())
                                            .isPresent()
                                    + "/"
                                    + storage.getCheckpoint(agent, checkpoint.checkpointId())
                                            .isPresent() + ")");
                        }
                    }
                } catch (CheckpointConflictException e) {
                    tally.conflicts.incrementAndGet();
                }
            } else if (op < 90) {
                tally.reads.incrementAndGet();
                switch (op % 3) {
                    case 0 ->
                        storage.getCheckpoints(
                                agent, CheckpointFilter.builder().limit(5).build());
                    case 1 ->
                        storage.getCheckpoints(
                                agent,
                                CheckpointFilter.builder()
                                        .metadata(Map.of("parity", "even"))
                                        .limit(3)
                                        .build());
                    default -> {
                        var acked = new ArrayList<>(tally.acked.get(agent).values());
                        if (!acked.isEmpty()) {
                            var expected = acked.get(random.nextInt(acked.size()));
                            Optional<AgentCheckpoint> found = storage.getCheckpoint(agent, expected.checkpointId());
                            if (found.isPresent()) {
                                assertThat(found.get()).isEqualTo(expected);
                            } else {
                                // Trims record their bound before deleting, so a missing one was trimmed.
                                assertThat(expected.version())
                                        .as("only trimmed checkpoints may be missing")
                                        .isLessThan(
                                                tally.trimmedBelow.get(agent).get());
                            }
                        }
                    }
                }
            } else {
                var latest = storage.getLatestCheckpoint(agent);
                if (latest.isPresent() && latest.get().version() > 20) {
                    long below = latest.get().version() - 10;
                    tally.trimmedBelow.get(agent).accumulateAndGet(below, Math::max);
                    storage.deleteCheckpointsBefore(agent, below);
                    tally.trims.incrementAndGet();
                }
            }
        }
    }
}
