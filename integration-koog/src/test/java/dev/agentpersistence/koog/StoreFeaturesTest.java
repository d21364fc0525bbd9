package dev.agentpersistence.koog;

import static org.assertj.core.api.Assertions.assertThat;

import ai.koog.agents.snapshot.feature.AgentCheckpointData;
import ai.koog.agents.snapshot.feature.GraphCheckpointProperties;
import ai.koog.agents.snapshot.providers.file.JVMFilePersistenceStorageProvider;
import ai.koog.prompt.message.Message;
import ai.koog.prompt.message.RequestMetaInfo;
import ai.koog.prompt.message.ResponseMetaInfo;
import ai.koog.serialization.JSONPrimitive;
import dev.agentpersistence.file.FileStorage;
import dev.agentpersistence.file.FileStorageConfig;
import dev.agentpersistence.inmemory.InMemoryStorage;
import dev.agentpersistence.metrics.StorageMetricNames;
import dev.agentpersistence.observation.AgentObservations;
import dev.agentpersistence.tck.StorageDumps;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import kotlin.coroutines.EmptyCoroutineContext;
import kotlinx.coroutines.BuildersKt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the store brings to a Koog agent: metrics, and incremental history in place of whole histories. */
class StoreFeaturesTest {
    @TempDir
    Path dir;

    @Test
    void aMeteredStoreCountsTheAgentsSavesAndLoads() {
        var registry = new SimpleMeterRegistry();
        try (var provider = InMemoryStorage.builder()
                .observationRegistry(AgentObservations.registryFor(registry))
                .build()) {
            WriterAgent.create(KoogCheckpointStorage.of(provider), new ScriptedExecutor())
                    .run("metrics", "metered");
        }

        assertThat(registry.get(StorageMetricNames.CHECKPOINT_SAVE).timers())
                .extracting(timer -> timer.count())
                .containsExactly(4L);
        assertThat(registry.get(StorageMetricNames.CHECKPOINT_SIZE).summary().count())
                .isEqualTo(4);
        assertThat(registry.get(StorageMetricNames.CHECKPOINT_LOAD).timers()).isNotEmpty();
    }

    @Test
    void aLongSessionStoresEachMessageOnceNotOncePerCheckpoint() throws Exception {
        int steps = 120;
        try (var provider = FileStorage.builder(FileStorageConfig.custom()
                        .directory(dir.resolve("ours"))
                        .build())
                .build()) {
            var ours = KoogCheckpointStorage.of(provider);
            var koogs = new JVMFilePersistenceStorageProvider(dir.resolve("koog"));
            var history = new ArrayList<Message>();
            for (int step = 0; step < steps; step++) {
                kotlin.time.Instant now =
                        kotlin.time.Instant.Companion.fromEpochMilliseconds(1_760_000_000_000L + step);
                history.add(new Message.User(
                        "step " + step + ": " + "please continue the report. ".repeat(20), new RequestMetaInfo(now)));
                history.add(new Message.Assistant(
                        "step " + step + ": " + "here is the next paragraph. ".repeat(20), new ResponseMetaInfo(now)));
                var checkpoint = new AgentCheckpointData(
                        "cp-" + step,
                        now,
                        List.copyOf(history),
                        step,
                        new GraphCheckpointProperties("writer/writer/step", JSONPrimitive.of("done " + step)));
                ours.saveCheckpointAsync("long", checkpoint).get();
                BuildersKt.runBlocking(
                        EmptyCoroutineContext.INSTANCE,
                        (scope, continuation) -> koogs.saveCheckpoint("long", checkpoint, continuation));
            }
            assertThat(ours.getLatestCheckpointAsync("long", null).get().getMessageHistory())
                    .isEqualTo(history);
        }

        long oursBytes = StorageDumps.directory(dir.resolve("ours")).length;
        long koogBytes = StorageDumps.directory(dir.resolve("koog")).length;
        System.out.printf("%d steps: ours %d bytes, Koog's file provider %d bytes%n", steps, oursBytes, koogBytes);
        assertThat(oursBytes * 10)
                .as("ours %d bytes, Koog's %d", oursBytes, koogBytes)
                .isLessThan(koogBytes);
    }
}
