package dev.agentpersistence.benchmarks.peer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.benchmarks.backend.BenchSettings;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The peer workload on every store that needs no server: it saves, reads back and measures. */
class PeerWorkloadTest {
    private static final int STEPS = 40;

    @TempDir
    Path directory;

    @ParameterizedTest
    @ValueSource(
            strings = {
                "ours-inmemory",
                "ours-file",
                "ours-file-nofsync",
                "ours-sqlite",
                "ours-inmemory+incremental",
                "ours-file+incremental",
                "koog-inmemory",
                "koog-file",
                "langgraph4j-memory",
                "langgraph4j-file",
                "koog-on-ours-file",
                "koog-on-ours-sqlite",
                "langgraph4j-on-ours-file",
                "langgraph4j-on-ours-sqlite"
            })
    void runsAndChecksWhatItReadsBack(String id) throws Exception {
        var settings = new BenchSettings(
                "test",
                directory,
                "jdbc:postgresql://unused",
                "jdbc:mariadb://unused",
                "redis://unused",
                Optional.empty());
        PeerResult result;
        try (PeerStore store = PeerStores.open(id, settings, false)) {
            result = PeerWorkload.run(id, store, STEPS, 3);
        }
        assertThat(result.store()).isEqualTo(id);
        assertThat(result.saveNanos()).hasSize(STEPS);
        assertThat(Arrays.stream(result.saveNanos()).allMatch(nanos -> nanos > 0))
                .isTrue();
        assertThat(result.latestCalls()).isEqualTo(3);
        assertThat(result.latestMicros()).isPositive();
        assertThat(result.note()).isNotBlank();
        long fullHistories = (long) STEPS * (STEPS + 1) * PeerWorkload.MESSAGE_CHARS; // 2 messages per step, summed
        if (id.endsWith("memory") || id.endsWith("memory+incremental")) {
            assertThat(result.bytesStored()).isEqualTo(-1);
        } else if (id.endsWith("-on-ours-sqlite")) {
            // SQLite's pages and write-ahead log dominate a run this short
            assertThat(result.bytesStored()).isPositive().isLessThan(fullHistories);
        } else if (PeerStores.incremental(id) || id.endsWith("-on-ours-file")) {
            assertThat(result.bytesStored()).isPositive().isLessThan(fullHistories / 2);
        } else if (id.startsWith(PeerStores.OURS)) {
            // every full history, deflate-compressed (about 3x for this text)
            assertThat(result.bytesStored()).isGreaterThan(fullHistories / 6);
        } else {
            assertThat(result.bytesStored()).isGreaterThan(fullHistories / 2);
        }
    }
}
