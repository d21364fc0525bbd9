package dev.agentpersistence.koog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.inmemory.InMemoryStorage;
import dev.agentpersistence.tck.RequiredMethodsProvider;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** With an executor, the store's calls run on it, and its failures still reach Koog as our exceptions. */
class ExecutorOptionTest {
    private final ExecutorService io = Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "store-io"));
    private final Set<String> threads = ConcurrentHashMap.newKeySet();

    @AfterEach
    void stop() {
        io.shutdownNow();
    }

    /** A store noting the thread of every call it gets. */
    private final class ThreadRecordingStore extends RequiredMethodsProvider<CheckpointFilter> {
        ThreadRecordingStore() {
            super(InMemoryStorage.builder().build());
        }

        @Override
        public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
            threads.add(Thread.currentThread().getName());
            return super.getCheckpoints(agentId, filter);
        }

        @Override
        public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
            threads.add(Thread.currentThread().getName());
            super.saveCheckpoint(agentId, checkpoint);
        }

        @Override
        public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
            threads.add(Thread.currentThread().getName());
            return super.getLatestCheckpoint(agentId, filter);
        }

        @Override
        public void close() {
            delegate().close();
        }
    }

    @Test
    void theStoresCallsRunOnTheGivenExecutor() {
        try (var provider = new ThreadRecordingStore()) {
            var storage = KoogCheckpointStorage.builder(provider)
                    .executor(io)
                    .agentIdPrefix("team-a/")
                    .build();

            String output = WriterAgent.create(storage, new ScriptedExecutor()).run("on io", "s-1");

            assertThat(output).isEqualTo(WriterAgent.expectedOutput("on io"));
            assertThat(threads).containsExactly("store-io");
            assertThat(provider.getCheckpoints("@koog/team-a/s-1")).hasSize(4);
            assertThat(storage.agentId("s-1")).isEqualTo("@koog/team-a/s-1");
        }
    }

    @Test
    void aConflictOnTheExecutorStillEndsTheRunWithOurException() {
        try (var provider = InMemoryStorage.builder().build()) {
            var otherWriter = KoogCheckpointStorage.of(provider);
            var racing = new RacingWriterStore(
                    provider,
                    "writer/writer/plan",
                    latest -> otherWriter
                            .saveCheckpointAsync(
                                    "s-2", CheckpointMappingTest.checkpoint("other", latest.version() + 1, List.of()))
                            .join());
            var storage = KoogCheckpointStorage.builder(racing).executor(io).build();

            assertThatThrownBy(() ->
                            WriterAgent.create(storage, new ScriptedExecutor()).run("raced", "s-2"))
                    .hasStackTraceContaining(KoogCheckpointConflictException.class.getName());
            assertThat(provider.getCheckpoints("@koog/s-2"))
                    .extracting(AgentCheckpoint::checkpointId)
                    .endsWith("other");
        }
    }
}
