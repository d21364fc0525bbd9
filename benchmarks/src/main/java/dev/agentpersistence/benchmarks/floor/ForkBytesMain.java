package dev.agentpersistence.benchmarks.floor;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.benchmarks.backend.BackendDriver;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.benchmarks.backend.BenchmarkedForm;
import dev.agentpersistence.benchmarks.history.GrowthOptions;
import dev.agentpersistence.benchmarks.history.GrowthResults;
import dev.agentpersistence.benchmarks.peer.PeerWorkload;
import dev.agentpersistence.benchmarks.peer.Turn;
import dev.agentpersistence.storage.StorageSettings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;

/**
 * Bytes a fork adds to each store: the peer workload's agent ({@code --steps} steps, default 200: two messages of 1,024
 * characters each), then a second agent holding its final history, stored three ways in three stores of the backend:
 * not at all (the parent alone), as an ordinary save of the same checkpoint under the new agent id (what a fork stored
 * before forks shared their parent's log) and as {@link AgentPersistence#fork}. Bytes held are read as the floor
 * benchmark reads them ({@link StorageFloorMain}). Run from the benchmark jar:
 *
 * <pre>{@code java -cp benchmarks/target/benchmarks.jar dev.agentpersistence.benchmarks.floor.ForkBytesMain \
 *     [--steps=200] [--backends=file,sqlite,postgresql,mariadb,redis,s3]}
 * </pre>
 *
 * Writes a Markdown table to {@code benchmarks/target/benchmark-results/fork-bytes-<time>.md}.
 */
public final class ForkBytesMain {
    private static final String PARENT = "fork-parent";
    private static final String CHILD = "fork-child";

    private ForkBytesMain() {}

    /** How the second agent is stored. */
    private enum Second {
        NONE,
        COPY,
        FORK
    }

    public static void main(String[] args) throws Exception {
        var numberDefaults = new LinkedHashMap<String, Integer>();
        numberDefaults.put("steps", 200);
        var options = GrowthOptions.parse(
                args, numberDefaults, List.of("file", "sqlite", "postgresql", "mariadb", "redis", "s3"));
        List<Turn> turns = PeerWorkload.conversation(options.number("steps"));
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        var rows = new ArrayList<String>();
        GrowthResults.withNewRun(options.keepData(), settings -> {
            for (var available :
                    GrowthResults.availableDrivers(options.backends(), settings).entrySet()) {
                String id = available.getKey();
                BackendDriver driver = available.getValue();
                long alone = run(driver, settings, "forknone", turns, Second.NONE);
                long copy = run(driver, settings, "forkcopy", turns, Second.COPY);
                long fork = run(driver, settings, "forkshared", turns, Second.FORK);
                rows.add(String.format(
                        Locale.ROOT,
                        "| %s | %,d | %,d | %,d | %s |",
                        id,
                        alone,
                        copy - alone,
                        fork - alone,
                        fork > alone
                                ? String.format(Locale.ROOT, "%.1f×", (copy - alone) / (double) (fork - alone))
                                : "– (the fork fits in pages the store had)"));
                System.err.println(rows.get(rows.size() - 1));
            }
        });
        String header = String.format(
                Locale.ROOT,
                "### Bytes a fork adds: a fork of the last of %d checkpoints (%d messages of 1,024 characters)%n%n"
                        + "Machine load average at the end: %s%n%n"
                        + "| backend | parent alone | + a copy under a new agent id | + a fork | copy / fork |%n"
                        + "|---|---:|---:|---:|---:|%n",
                turns.size() / 2,
                turns.size(),
                GrowthResults.loadAverage());
        GrowthResults.publish("fork-bytes", header, rows);
    }

    /** The parent's run, the second agent stored as {@code second}, and the bytes held afterwards. */
    private static long run(
            BackendDriver driver, BenchSettings settings, String namespace, List<Turn> turns, Second second) {
        try (PersistenceStorageProvider<CheckpointFilter> provider = driver.builder(settings, namespace, false, true)
                .settings(StorageSettings.from(BenchmarkedForm.settings(true)).build())
                .build()) {
            var history = new ArrayList<Message>();
            AgentCheckpoint last = null;
            for (int step = 0; step < turns.size() / 2; step++) {
                for (Turn turn : turns.subList(2 * step, 2 * step + 2)) {
                    history.add(turn.user() ? Message.user(turn.text()) : Message.assistant(turn.text()));
                }
                last = AgentCheckpoint.builder()
                        .checkpointId("step-" + step)
                        .agentId(PARENT)
                        .version(step)
                        .createdAt(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(step))
                        .messageHistory(List.copyOf(history))
                        .build();
                provider.saveCheckpoint(PARENT, last);
            }
            AgentCheckpoint secondFirst = null;
            if (second == Second.COPY) {
                secondFirst = last.toBuilder().agentId(CHILD).version(0).build();
                provider.saveCheckpoint(CHILD, secondFirst);
            } else if (second == Second.FORK) {
                secondFirst =
                        AgentPersistence.builder().storage(provider).build().fork(PARENT, last.checkpointId(), CHILD);
            }
            if (secondFirst != null
                    && !provider.getLatestCheckpoint(CHILD)
                            .orElseThrow()
                            .messageHistory()
                            .equals(history)) {
                throw new IllegalStateException("the second agent did not read back equal on " + namespace);
            }
        } catch (Exception e) {
            throw new IllegalStateException("The fork benchmark failed on " + namespace, e);
        }
        return driver.bytesHeld(settings, namespace);
    }
}
