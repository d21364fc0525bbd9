package dev.agentpersistence.benchmarks.floor;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.benchmarks.backend.Backend;
import dev.agentpersistence.benchmarks.backend.BackendDriver;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.benchmarks.history.GrowthOptions;
import dev.agentpersistence.benchmarks.history.GrowthResults;
import dev.agentpersistence.benchmarks.peer.OurPeerStore;
import dev.agentpersistence.benchmarks.peer.PeerWorkload;
import dev.agentpersistence.benchmarks.peer.Turn;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a save costs the same however long the history is: per backend and history length, an agent runs the peer
 * workload's steps (a user and an assistant message of 1 KiB each) until its history holds {@code N} messages, untimed,
 * and then {@code --saves} more steps are timed one by one: the {@code saveCheckpoint} call, and apart from it the
 * caller's building of the checkpoint (which copies the history into an immutable list). The lengths take turns within
 * each of {@code --rounds} rounds, after one untimed round, so that every length sees the same JIT and machine state;
 * the table gives the median and mean save time per length, the median's ratio to the shortest length's, and the median
 * time to build the checkpoint. Run from the benchmark jar:
 *
 * <pre>
 * {@code java -Xmx4g -cp benchmarks/target/benchmarks.jar dev.agentpersistence.benchmarks.floor.SaveGrowthMain \
 *     [--short=200] [--middle=2000] [--long=8000] [--saves=200] [--rounds=5] [--backends=inmemory,file-nofsync]}
 * </pre>
 *
 * Starts S3Proxy for {@code s3}, uses names unique to the run in every backend and removes the data afterwards. Writes
 * a Markdown table to {@code benchmarks/target/benchmark-results/save-growth-<time>.md}.
 */
public final class SaveGrowthMain {
    private SaveGrowthMain() {}

    public static void main(String[] args) throws Exception {
        var numberDefaults = new LinkedHashMap<String, Integer>();
        numberDefaults.put("short", 200);
        numberDefaults.put("middle", 2000);
        numberDefaults.put("long", 8000);
        numberDefaults.put("saves", 200);
        numberDefaults.put("rounds", 5);
        var options = GrowthOptions.parse(args, numberDefaults, List.of("inmemory", "file-nofsync"));
        int[] lengths = {options.number("short"), options.number("middle"), options.number("long")};
        int saves = options.number("saves");
        int rounds = options.number("rounds");
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        var table = new StringBuilder(
                "| backend | messages before the timed saves | save p50 (µs) | save mean (µs)" + " | p50 / p50 at "
                        + lengths[0] + " | building the checkpoint, p50 (µs) |\n|---|---|---|---|---|---|\n");
        GrowthResults.withNewRun(options.keepData(), settings -> {
            for (String id : options.backends()) {
                Optional<Backend> backend = GrowthResults.available(id, settings);
                if (backend.isPresent()) {
                    table.append(rows(backend.get(), settings, lengths, saves, rounds));
                }
            }
        });
        table.append("\nLoad average at the end: ")
                .append(GrowthResults.loadAverage())
                .append('\n');
        GrowthResults.write("save-growth", table.toString());
    }

    private static String rows(Backend backend, BenchSettings settings, int[] lengths, int saves, int rounds) {
        BackendDriver driver = backend.driver();
        List<Turn> turns =
                PeerWorkload.conversation(Arrays.stream(lengths).max().orElseThrow() / 2 + saves);
        Map<Integer, Timings> timed = new LinkedHashMap<>();
        for (int length : lengths) {
            timed.put(length, new Timings(new ArrayList<>(), new ArrayList<>()));
        }
        for (int round = 0; round <= rounds; round++) {
            for (int i = 0; i < lengths.length; i++) {
                int length = lengths[(i + round) % lengths.length];
                // round 0 warms up
                Timings into = round == 0 ? new Timings(new ArrayList<>(), new ArrayList<>()) : timed.get(length);
                try (var provider = driver.open(settings, "savegrowth" + round + "x" + length, false, true)) {
                    run(provider, "growth-" + round + "-" + length, turns, length / 2, saves, into);
                }
            }
        }
        var rows = new StringBuilder();
        double base = median(timed.get(lengths[0]).saves());
        for (int length : lengths) {
            Timings timings = timed.get(length);
            double median = median(timings.saves());
            double mean = timings.saves().stream()
                            .mapToLong(Long::longValue)
                            .average()
                            .orElse(0)
                    / 1_000;
            rows.append(String.format(
                    Locale.ROOT,
                    "| %s | %,d | %.1f | %.1f | %.2f× | %.1f |%n",
                    backend.id(),
                    length,
                    median,
                    mean,
                    median / base,
                    median(timings.builds())));
        }
        return rows.toString();
    }

    /** The nanoseconds of each timed save and of building its checkpoint. */
    private record Timings(List<Long> saves, List<Long> builds) {}

    /** Saves {@code untimed} steps of {@code agentId}, then times {@code saves} more. */
    private static void run(
            PersistenceStorageProvider<CheckpointFilter> provider,
            String agentId,
            List<Turn> turns,
            int untimed,
            int saves,
            Timings into) {
        var messages = new ArrayList<Message>();
        for (int step = 0; step < untimed + saves; step++) {
            for (Turn turn : turns.subList(2 * step, 2 * step + 2)) {
                messages.add(turn.user() ? Message.user(turn.text()) : Message.assistant(turn.text()));
            }
            long started = System.nanoTime();
            AgentCheckpoint checkpoint = OurPeerStore.checkpoint(agentId, step, messages);
            long built = System.nanoTime();
            provider.saveCheckpoint(agentId, checkpoint);
            long saved = System.nanoTime();
            if (step >= untimed) {
                into.builds().add(built - started);
                into.saves().add(saved - built);
            }
        }
    }

    /** The median of {@code nanos}, in microseconds. */
    private static double median(List<Long> nanos) {
        long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
        return sorted[sorted.length / 2] / 1_000.0;
    }
}
