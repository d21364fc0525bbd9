package dev.agentpersistence.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.benchmarks.peer.PeerResult;
import dev.agentpersistence.benchmarks.peer.PeerWorkloadMain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The peer workload part of a run: one fresh JVM per store, one after the other. */
final class PeerRun {
    private static final long TIMEOUT_MINUTES = 30;

    private PeerRun() {}

    static List<PeerResult> run(RunMode mode, BenchSettings settings, List<String> stores, Path resultsDir)
            throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        var results = new ArrayList<PeerResult>();
        for (String store : stores) {
            Path resultFile = resultsDir.resolve("peer-" + store + ".json");
            var command = new ArrayList<String>();
            command.add(java);
            command.add("-Xmx4g");
            command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
            command.addAll(settings.jvmArguments());
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(PeerWorkloadMain.class.getName());
            command.add(store);
            command.add(Integer.toString(mode.peerSteps()));
            command.add(Integer.toString(mode.peerLatestCalls()));
            command.add(Integer.toString(mode.peerWarmupSteps()));
            command.add(resultFile.toString());
            Process process = new ProcessBuilder(command).inheritIO().start();
            if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                process.destroyForcibly().waitFor();
                System.err.println(
                        "peer workload on " + store + " did not finish within " + TIMEOUT_MINUTES + " minutes");
                continue;
            }
            if (process.exitValue() != 0 || !Files.exists(resultFile)) {
                System.err.println("peer workload on " + store + " failed (exit " + process.exitValue() + ")");
                continue;
            }
            results.add(new ObjectMapper().readValue(resultFile.toFile(), PeerResult.class));
        }
        return results;
    }
}
