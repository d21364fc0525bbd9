package dev.agentpersistence.benchmarks.floor;

import dev.agentpersistence.backend.BackendOpener;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.benchmarks.backend.BackendDriver;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.benchmarks.backend.BenchmarkedForm;
import dev.agentpersistence.benchmarks.peer.OurPeerStore;
import dev.agentpersistence.benchmarks.peer.PeerWorkload;
import dev.agentpersistence.benchmarks.peer.Turn;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import java.util.List;
import java.util.Objects;

/**
 * How many backend calls one {@code getLatestCheckpoint} makes for a long history read by a provider that has never
 * seen it (cold cache): one agent saves {@code steps} steps of the peer workload (two messages each, one checkpoint per
 * step, incremental history), then a new provider over the same store, its backend wrapped in a
 * {@link CountingBackend}, reads the latest checkpoint once. The heap store lives only as long as its backend, so there
 * the new provider shares the writer's backend ({@link InMemoryStorageBackend#share()}).
 */
final class RoundTrips {
    private static final String AGENT = "long-history-agent";

    private RoundTrips() {}

    /** The calls of one cold read of the latest checkpoint after {@code steps} steps in {@code namespace}. */
    static BackendCalls ofColdLatest(BackendDriver driver, BenchSettings settings, String namespace, int steps)
            throws Exception {
        Objects.requireNonNull(driver, "driver");
        BackendOpener opener = ShellOpener.of(driver.builder(settings, namespace, false, true));
        StorageSettings form = BenchmarkedForm.settings(true);
        StorageBackend[] written = new StorageBackend[1];
        List<Turn> history = PeerWorkload.conversation(steps);
        var writer = new OurPeerStore(
                StorageShell.builder(context -> written[0] = opener.open(context))
                        .settings(form)
                        .build(),
                AGENT,
                () -> -1,
                "writer");
        var calls = new BackendCalls();
        try (writer) {
            for (int step = 0; step < steps; step++) {
                writer.save(step, history.subList(0, 2 * step + 2));
            }
            if (!driver.keepsDataAfterClose()) {
                // a heap store lives as long as its backend: a new shell over it, which the reader must not close
                coldRead(context -> new CountingBackend(written[0], calls, false), calls, history.size());
            }
        }
        if (driver.keepsDataAfterClose()) {
            coldRead(context -> new CountingBackend(opener.open(context), calls, true), calls, history.size());
        }
        return calls;
    }

    /** One latest read through a new shell over {@code backend}, counted from after the shell opened. */
    private static void coldRead(BackendOpener backend, BackendCalls calls, int expected) throws Exception {
        try (var reader = StorageShell.builder(backend)
                .settings(BenchmarkedForm.settings(true))
                .build()) {
            calls.reset(); // what opening the shell did is not part of the read
            int read = reader.getLatestCheckpoint(AGENT)
                    .orElseThrow()
                    .messageHistory()
                    .size();
            if (read != expected) {
                throw new IllegalStateException("the cold read found " + read + " messages, not " + expected);
            }
        }
    }
}
