package dev.agentpersistence.benchmarks.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.inmemory.InMemoryStorage;
import org.junit.jupiter.api.Test;

class GrowthRunTest {

    @Test
    void measuresEveryStepAndWhatEachStoreKeeps() {
        var run = new GrowthRun(300, 256);
        GrowthRun.Outcome full;
        GrowthRun.Outcome incremental;
        // uncompressed, so that the bytes compare the two forms and not how well deflate does on each
        var plain = dev.agentpersistence.storage.StorageSettings.custom()
                .layers(dev.agentpersistence.codec.DocumentLayers.none());
        try (var provider = InMemoryStorage.builder()
                .settings(plain.incrementalHistory(false).build())
                .clock(java.time.Clock.systemUTC())
                .build()) {
            full = run.run(provider, "agent");
        }
        try (var provider = InMemoryStorage.builder()
                .settings(plain.incrementalHistory(true).build())
                .clock(java.time.Clock.systemUTC())
                .build()) {
            incremental = run.run(provider, "agent");
        }
        assertThat(full.saveNanos()).hasSize(300);
        assertThat(full.latestExact()).isTrue();
        assertThat(incremental.latestExact()).isTrue();
        assertThat(full.meanMillis(0, 300)).isEqualTo(full.totalNanos() / 1e6 / 300);
        assertThat(incremental.logicalBytes() * 10)
                .as("incremental %d, full %d bytes", incremental.logicalBytes(), full.logicalBytes())
                .isLessThan(full.logicalBytes());
    }
}
