package dev.agentpersistence.adk;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.adk.sessions.Session;
import dev.agentpersistence.inmemory.InMemoryStorage;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What an append costs in store operations, counted by the storage's own observations, for a short and a long session.
 */
class AppendCostTest {
    private final AtomicInteger operations = new AtomicInteger();

    @Test
    void anAppendMakesTheSameStoreOperationsWhateverTheSessionsLength() {
        var registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler<Observation.Context>() {
            @Override
            public void onStart(Observation.Context context) {
                operations.incrementAndGet();
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        });
        try (var storage =
                InMemoryStorage.builder().observationRegistry(registry).build()) {
            var service = AgentPersistenceSessionService.of(storage);
            Session shortSession =
                    service.createSession("app", "user", null, "short").blockingGet();
            Session longSession =
                    service.createSession("app", "user", null, "long").blockingGet();
            for (int i = 0; i < 300; i++) {
                service.appendEvent(longSession, AdkEvents.withDelta(Map.of("turn", i), 1_000L + i))
                        .blockingGet();
            }
            service.appendEvent(shortSession, AdkEvents.withDelta(Map.of("turn", 0), 1_000L))
                    .blockingGet();

            int onShort =
                    operationsOf(() -> service.appendEvent(shortSession, AdkEvents.withDelta(Map.of("turn", 1), 2_000L))
                            .blockingGet());
            int onLong = operationsOf(() -> service.appendEvent(
                            longSession, AdkEvents.withDelta(Map.of("turn", 300), 2_000L))
                    .blockingGet());
            // the session's head and its save, the heads of the app's and the user's state
            assertThat(onShort).isEqualTo(4);
            assertThat(onLong).isEqualTo(onShort);

            int withShared = operationsOf(() -> service.appendEvent(
                            longSession, AdkEvents.withDelta(Map.of("app:k", 1, "user:k", 2), 3_000L))
                    .blockingGet());
            // plus one save for each shared state, each with the read of its head the save makes
            assertThat(withShared).isEqualTo(8);
            assertThat(longSession.state()).containsEntry("app:k", 1).containsEntry("user:k", 2);
        }
    }

    private int operationsOf(Runnable action) {
        int before = operations.get();
        action.run();
        return operations.get() - before;
    }
}
