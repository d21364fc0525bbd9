package dev.agentpersistence.benchmarks;

import dev.agentpersistence.benchmarks.peer.PeerStores;
import java.util.List;
import java.util.Map;

/**
 * How much a run measures. {@link #QUICK} stays under five minutes on a quiet two-core machine and is indicative;
 * {@link #FULL} is what the README reports.
 *
 * @param name as given on the command line
 * @param passes the JMH runs, one after the other
 * @param warmupIterations JMH warm-up iterations per benchmark
 * @param iterations JMH measurement iterations per benchmark
 * @param iterationMillis length of each JMH iteration
 * @param forks JMH forks per benchmark
 * @param peerSteps agent steps of the peer workload
 * @param peerLatestCalls reads of the latest checkpoint in the peer workload
 * @param peerWarmupSteps steps of a warm-up run before the measured peer run (0: none)
 * @param peerStores the stores of the peer workload (see {@link PeerStores#all()})
 */
public record RunMode(
        String name,
        List<Pass> passes,
        int warmupIterations,
        int iterations,
        int iterationMillis,
        int forks,
        int peerSteps,
        int peerLatestCalls,
        int peerWarmupSteps,
        List<String> peerStores) {

    /**
     * One JMH run: benchmarks matching {@code include} with these parameter values.
     *
     * @param include a JMH benchmark regex
     * @param params parameter values by name (parameters a benchmark does not declare are ignored)
     */
    public record Pass(String include, Map<String, List<String>> params) {}

    private static final String PROVIDER = ProviderBenchmarks.class.getName();
    private static final String RAW_AND_CODEC =
            "(" + RawBenchmarks.class.getName() + "|" + CodecBenchmarks.class.getName() + ")";
    private static final String RAW_CODEC_AND_LISTING = "(" + RawBenchmarks.class.getName() + "|"
            + CodecBenchmarks.class.getName() + "|" + S3ListingBenchmarks.class.getName() + ")";

    /**
     * A few minutes: every operation on the small agent, latest on the large one, baselines for 10 messages, the peer
     * workload (file and in-memory stores against the peers) after a 30-step warm-up run. LangGraph4j's file saver is
     * left out: its 200 saves alone take more than a minute.
     */
    public static final RunMode QUICK = new RunMode(
            "quick",
            List.of(
                    new Pass(PROVIDER + ".*", Map.of("shape", List.of("10x10"), "history", List.of("plain"))),
                    new Pass(PROVIDER + ".latest", Map.of("shape", List.of("10000x10"), "history", List.of("plain"))),
                    new Pass(RAW_AND_CODEC + ".*", Map.of("messages", List.of("10")))),
            1,
            2,
            300,
            1,
            200,
            20,
            30,
            List.of(
                    "ours-inmemory",
                    "ours-inmemory+incremental",
                    "ours-file",
                    "ours-file+incremental",
                    "ours-file-nofsync",
                    "ours-file-nofsync+incremental",
                    "koog-inmemory",
                    "koog-file",
                    "langgraph4j-memory",
                    "koog-on-ours-file",
                    "koog-on-ours-sqlite",
                    "langgraph4j-on-ours-file",
                    "langgraph4j-on-ours-sqlite"));

    /**
     * The reported run: every operation on every shape, again on the 1,000-message shape with incremental histories,
     * baselines for both history sizes, the S3 server's listing, a warmed-up peer run.
     */
    public static final RunMode FULL = new RunMode(
            "full",
            List.of(
                    new Pass(
                            PROVIDER + ".*",
                            Map.of("shape", List.of("10x10", "10x1000", "10000x10"), "history", List.of("plain"))),
                    new Pass(PROVIDER + ".*", Map.of("shape", List.of("10x1000"), "history", List.of("incremental"))),
                    new Pass(RAW_CODEC_AND_LISTING + ".*", Map.of("messages", List.of("10", "1000")))),
            2,
            4,
            1000,
            1,
            200,
            1000,
            100,
            PeerStores.all());

    /** The mode called {@code name}. */
    public static RunMode of(String name) {
        return switch (name) {
            case "quick" -> QUICK;
            case "full" -> FULL;
            default -> throw new IllegalArgumentException("Unknown mode '" + name + "': quick or full");
        };
    }
}
