package dev.agentpersistence.adk;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.adk.memory.BaseMemoryService;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import java.nio.file.Path;
import java.time.Clock;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** The memory scenarios plus reopening and the result bound, on every provider of {@link AdkStore}. */
@ParameterizedClass
@EnumSource(AdkStore.class)
class StoredMemoryServiceTest extends MemoryScenarios {
    private PersistenceStorageProvider<CheckpointFilter> provider;
    private AgentPersistenceMemoryService memory;

    @Parameter
    AdkStore store;

    @TempDir
    Path dir;

    private final String prefix = "adk-test-" + UUID.randomUUID() + ":";

    /** Opens a provider on the test's store; each call opens a new one on the same data (the heap: a new heap). */
    private PersistenceStorageProvider<CheckpointFilter> openProvider() {
        return store.open(dir, prefix);
    }

    /** Whether a second {@link #openProvider()} sees the first one's data. */
    private boolean reopenable() {
        return store.reopenable();
    }

    @BeforeEach
    void open() {
        provider = openProvider();
        memory = AgentPersistenceMemoryService.of(provider);
    }

    @AfterEach
    void close() throws Exception {
        provider.close();
    }

    @Override
    protected BaseMemoryService memory() {
        return memory;
    }

    @Test
    void memorySurvivesAReopenedProvider() throws Exception {
        memory.addSessionToMemory(session(app, "u/1", "s/1", AdkEvents.text("user", "remember the tea", 1_000)))
                .blockingAwait();
        if (reopenable()) {
            provider.close();
            provider = openProvider();
        }
        memory = AgentPersistenceMemoryService.of(provider);
        assertThat(memory.searchMemory(app, "u/1", "tea").blockingGet().memories())
                .hasSize(1);
    }

    @Test
    void searchStopsAtTheLimit() {
        var bounded = AgentPersistenceMemoryService.of(provider, Clock.systemUTC(), 3);
        for (int i = 0; i < 3; i++) {
            bounded.addSessionToMemory(session(
                            app,
                            "user",
                            "s-" + i,
                            AdkEvents.text("user", "tea " + i, 1_000),
                            AdkEvents.text("agent", "more tea " + i, 2_000)))
                    .blockingAwait();
        }
        assertThat(bounded.searchMemory(app, "user", "tea").blockingGet().memories())
                .hasSize(3);
        assertThat(memory.searchMemory(app, "user", "tea").blockingGet().memories())
                .hasSize(6);
    }
}
