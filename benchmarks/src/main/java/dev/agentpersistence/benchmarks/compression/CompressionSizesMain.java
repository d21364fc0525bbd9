package dev.agentpersistence.benchmarks.compression;

/**
 * Prints, for the benchmark checkpoint with 10 and 1,000 messages, the size every compression candidate reaches and its
 * ratio to the JSON document.
 */
public final class CompressionSizesMain {
    private CompressionSizesMain() {}

    public static void main(String[] args) {
        System.out.println("| candidate | 10 messages | 1,000 messages |");
        System.out.println("|---|---|---|");
        byte[] small = CompressionBenchmarks.documentOf(10);
        byte[] large = CompressionBenchmarks.documentOf(1000);
        System.out.printf("| JSON | %,d B | %,d B |%n", small.length, large.length);
        for (var candidate : CompressionCandidate.values()) {
            byte[] a = candidate.compress(small);
            byte[] b = candidate.compress(large);
            if (!java.util.Arrays.equals(candidate.decompress(b, large.length), large)) {
                throw new IllegalStateException(candidate.label() + " does not round-trip");
            }
            System.out.printf(
                    "| %s | %,d B (%.2f×) | %,d B (%.2f×) |%n",
                    candidate.label(),
                    a.length,
                    (double) small.length / a.length,
                    b.length,
                    (double) large.length / b.length);
        }
    }
}
