package dev.agentpersistence.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.pipeline.Pipeline;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.tck.ChildJvm;
import java.io.FileOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Pipeline runs in a child JVM SIGKILLed at random moments (mid-node, mid-save) and started again until they complete,
 * several runs per backend (file and SQLite): each run completes with every node's checkpoint exactly once in order,
 * the final state has every node once, and running the completed run again runs nothing.
 */
class PipelineKillTest {
    private static final int BOUNDED_RUNS = 2;
    private static final int LONG_RUNS = 20;
    private static final int MAX_STARTS = 40;

    private final Random random = new Random();
    private Path dir;

    @BeforeEach
    void createDir() throws Exception {
        dir = Ids.scratch("pipeline-kill");
    }

    @AfterEach
    void deleteDir() throws Exception {
        Ids.delete(dir);
    }

    @Test
    @Timeout(900)
    void file() throws Exception {
        runs(
                "file",
                "file",
                Map.of("agent.persistence.file.dir", dir.resolve("file").toString()));
    }

    @Test
    @Timeout(900)
    void sqlite() throws Exception {
        runs("jdbc-sqlite", "jdbc", Map.of("agent.persistence.jdbc.url", "jdbc:sqlite:" + dir.resolve("runs.db")));
    }

    private void runs(String label, String provider, Map<String, String> settings) throws Exception {
        Path settingsFile = dir.resolve("settings.properties");
        var properties = new Properties();
        properties.putAll(settings);
        try (var out = new FileOutputStream(settingsFile.toFile())) {
            properties.store(out, null);
        }
        int runs = Scale.pick(BOUNDED_RUNS, LONG_RUNS);
        int kills = 0;
        int nodeStarts = 0;
        long started = System.nanoTime();
        for (int run = 1; run <= runs; run++) {
            String runId = Ids.unique("run");
            Path journal = dir.resolve(runId + ".journal");
            boolean completed = false;
            for (int start = 1; start <= MAX_STARTS && !completed; start++) {
                ChildJvm child = ChildJvms.start(
                        PipelineChildMain.class, provider, settingsFile.toString(), runId, journal.toString());
                child.awaitLine("READY", Duration.ofSeconds(90));
                // Kill within the run's first ~700 ms (a run takes about 500 ms): every other start is
                // let run to its end, so each run is killed a few times and then completes.
                if (start % 2 == 1 || start < 3) {
                    Thread.sleep(random.nextInt(700));
                    child.kill();
                    kills++;
                } else {
                    assertThat(child.waitFor(Duration.ofSeconds(120)))
                            .as(child.output())
                            .isZero();
                }
                completed = child.lines().stream().anyMatch(l -> l.startsWith("RESULT COMPLETED"));
                assertThat(child.lines()).noneMatch(l -> l.startsWith("RESULT FAILED"));
            }
            assertThat(completed)
                    .as("run %s completed within %d starts", runId, MAX_STARTS)
                    .isTrue();
            nodeStarts += Files.readAllLines(journal).size();
            try (var storage = PersistenceStorageProviders.load(provider, ProviderConfig.of(settings))) {
                var expected = new ArrayList<String>(List.of(Pipeline.START_NODE_ID));
                expected.addAll(PipelineChildMain.nodeNames());
                expected.add(AgentCheckpoint.TOMBSTONE_NODE_ID);
                List<AgentCheckpoint> stored = storage.getCheckpoints(Pipeline.storedRunId(runId));
                assertThat(stored)
                        .filteredOn(cp -> !cp.metadata().containsKey(Pipeline.CLAIMED_METADATA_KEY))
                        .extracting(AgentCheckpoint::nodeId)
                        .as("one checkpoint per node, in order, besides the claims of restarted processes")
                        .containsExactlyElementsOf(expected);
                for (int i = 1; i < stored.size(); i++) {
                    String claimed = stored.get(i).metadata().get(Pipeline.CLAIMED_METADATA_KEY);
                    if (claimed != null) {
                        AgentCheckpoint copied = stored.get(i - 1);
                        assertThat(claimed)
                                .as("a claim copies the checkpoint right before it")
                                .isEqualTo(copied.checkpointId());
                        assertThat(stored.get(i).nodeId()).isEqualTo(copied.nodeId());
                        assertThat(stored.get(i).state()).isEqualTo(copied.state());
                    }
                }
                var result = PipelineChildMain.pipeline(storage, journal)
                        .run(runId, new PipelineChildMain.Progress(List.of()));
                assertThat(result.alreadyCompleted()).isTrue();
                assertThat(result.executedNodes()).isEmpty();
                assertThat(result.state().done()).containsExactlyElementsOf(PipelineChildMain.nodeNames());
            }
        }
        Figures.record(
                "pipeline killed mid-node",
                label,
                runs + " runs of " + PipelineChildMain.NODES + " nodes, "
                        + kills + " SIGKILLs, " + nodeStarts + " node starts for " + runs * PipelineChildMain.NODES
                        + " nodes (reruns of interrupted nodes), every run completed with one checkpoint per node; "
                        + (System.nanoTime() - started) / 1_000_000 + " ms");
    }
}
