package dev.agentpersistence.benchmarks.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.benchmarks.backend.Backend;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ThroughputRunTest {
    @TempDir
    Path directory;

    @Test
    void threadsSaveAndReadTheirOwnAgentsAndEveryCallIsTimed() throws Exception {
        var settings = new BenchSettings(
                "test",
                directory,
                "jdbc:postgresql://unused",
                "jdbc:mariadb://unused",
                "redis://unused",
                Optional.empty());
        try (var provider = Backend.SQLITE.driver().open(settings, "tput", false, true)) {
            var result = new ThroughputRun(2, 4, Duration.ofMillis(300)).measure(provider, "tp-");

            assertThat(result.threads()).isEqualTo(2);
            assertThat(result.saves()).isNotEmpty().isSorted().hasSameSizeAs(result.latests());
            assertThat(result.latests()).isSorted();
            assertThat(result.savesPerSecond()).isPositive();
            assertThat(ThroughputRun.Result.millis(result.saves(), 0.99))
                    .isGreaterThanOrEqualTo(ThroughputRun.Result.millis(result.saves(), 0.50));
            long stored = 0;
            for (int i = 0; i < 4; i++) {
                stored += provider.getLatestCheckpoint("tp-" + i).orElseThrow().version();
            }
            assertThat(stored)
                    .as("versions saved after the first of each agent")
                    .isEqualTo(result.saves().length);
        }
    }
}
