package dev.agentpersistence.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.benchmarks.peer.PeerResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SummaryTest {

    @Test
    void ratiosComeFromTheSameRunAndTargetsAreJudged() {
        var ops = List.of(
                op("RawBenchmarks.write", Map.of("backend", "redis", "messages", "10"), 100),
                op("RawBenchmarks.read", Map.of("backend", "redis", "messages", "10"), 80),
                op("ProviderBenchmarks.save", Map.of("backend", "redis", "shape", "10x10", "history", "plain"), 120),
                op("ProviderBenchmarks.latest", Map.of("backend", "redis", "shape", "10x10", "history", "plain"), 160),
                op(
                        "ProviderBenchmarks.latest",
                        Map.of("backend", "redis", "shape", "10000x10", "history", "plain"),
                        200));
        String tables = new Summary(new Results(ops, List.of())).tables();
        assertThat(tables)
                .contains("| redis | 10 | 100 µs | 120 µs | 1.20× | met | 80.0 µs | 160 µs | 2.00× | **not met** |");
        assertThat(tables).contains("| redis | 160 µs | 200 µs | 1.25× | met |");
    }

    @Test
    void incrementalHistoryGetsRowsOfItsOwn() {
        var ops = List.of(
                op("ProviderBenchmarks.save", Map.of("backend", "file", "shape", "10x1000", "history", "plain"), 900),
                op(
                        "ProviderBenchmarks.save",
                        Map.of("backend", "file", "shape", "10x1000", "history", "incremental"),
                        90));
        String tables = new Summary(new Results(ops, List.of())).tables();
        assertThat(tables).contains("| file | 900 µs | – |").contains("| file + incremental | 90.0 µs | – |");
    }

    @Test
    void peerTargetsCompareOurFileProviderWithKoogs() {
        long[] flat = new long[200];
        long[] growing = new long[200];
        for (int i = 0; i < 200; i++) {
            flat[i] = 1_000_000;
            growing[i] = 1_000_000L * (1 + i / 10);
        }
        var ours = new PeerResult("ours-file", "fsync", 200, flat, 1000, 500_000_000, 1, 1_000_000);
        var koog = new PeerResult("koog-file", "no fsync", 200, growing, 1000, 150_000_000_000L, 1, 55_000_000);
        String tables = new Summary(new Results(List.of(), List.of(ours, koog))).tables();
        assertThat(tables)
                .contains("`ours-file`: 200 saves ≥ 2× faster than Koog's file provider | 10.5× (200 ms vs 2.10 s) | "
                        + "met");
        assertThat(tables).contains("`ours-file`: flat save time (last-20 / first-20 ≤ 1.5) | 1.00× | met");
        assertThat(tables).contains("`ours-file`: latest ≤ 1 ms | 500 µs | met");
        assertThat(tables).contains("`ours-file`: latest ≥ 100× faster than Koog's file provider | 300× | met");
        assertThat(tables)
                .contains("`ours-file`: ≥ 25× fewer bytes than Koog's file provider | 55.0× (976.6 KiB vs 52.5 MiB) | "
                        + "met");
    }

    private static OpResult op(String benchmark, Map<String, String> params, double micros) {
        return new OpResult(benchmark, params, micros, Double.NaN, Double.NaN);
    }
}
