package dev.agentpersistence.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.InverseCall;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.RollbackReport;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.SimpleAgentContext;
import dev.agentpersistence.observation.AgentObservations;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@link AgentPersistence} facade over the real in-memory and file providers. */
class FacadeOverProvidersTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    @TempDir
    Path dir;

    private final List<PersistenceStorageProvider<CheckpointFilter>> opened = new ArrayList<>();
    private final String agentId = "agent " + UUID.randomUUID() + " ../é";

    static Stream<Backend> backends() {
        return Stream.of("inmemory", "file").flatMap(name -> Backends.of(name).stream());
    }

    private PersistenceStorageProvider<CheckpointFilter> open(Backend backend) {
        var provider = backend.open(dir);
        opened.add(provider);
        return provider;
    }

    @AfterEach
    void closeProviders() {
        opened.forEach(PersistenceStorageProvider::close);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void checkpointsRoundTripThroughTheProviderWithVersionsAndParents(Backend backend) {
        var createdAt = Instant.parse("2026-05-06T07:08:09.987654321Z");
        var persistence = AgentPersistence.builder()
                .storage(open(backend))
                .clock(Clock.fixed(createdAt, ZoneOffset.UTC))
                .build();
        var agent = new SimpleAgentContext(agentId)
                .append(Message.user("plan the report"))
                .putState("draft", JSON.objectNode().put("title", "Résumé 😀"));

        var first =
                persistence.createCheckpoint(agent, "plan", JSON.objectNode().put("topic", "x"), "Topic");
        agent.append(Message.assistant("planned"));
        var second = persistence.createCheckpoint(agent, "write", JSON.nullNode(), null, Map.of("run", "r1"));

        assertThat(persistence.checkpoints(agentId)).containsExactly(first, second);
        assertThat(second.version()).isEqualTo(first.version() + 1);
        assertThat(second.parentCheckpointId()).isEqualTo(first.checkpointId());
        var stored = persistence.checkpoint(agentId, second.checkpointId()).orElseThrow();
        assertThat(stored.createdAt()).isEqualTo(createdAt);
        assertThat(stored.lastInput()).isEqualTo(JSON.nullNode());
        assertThat(stored.metadata()).containsEntry("run", "r1");
        assertThat(persistence.latestCheckpoint(agentId)).contains(second);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void rollbackAfterTheHistoryWasTruncatedUndoesOnlyTheNewCalls(Backend backend) throws Exception {
        var users = new UserFile(dir.resolve("users.txt"));
        var createUser = users.createUser();
        var persistence = AgentPersistence.builder()
                .storage(open(backend))
                .rollbackTools(RollbackToolRegistry.builder()
                        .registerRollback(createUser, users.removeUser())
                        .build())
                .build();
        var agent = new SimpleAgentContext(agentId).append(Message.system("You manage users"));
        agent.callTool(createUser, JSON.objectNode().put("name", "Alex"));
        agent.callTool(createUser, JSON.objectNode().put("name", "Bo"));
        var checkpoint = persistence.createCheckpoint(agent, "users", null, null);
        // The framework cut the conversation back to the system prompt, then the agent created Maria.
        persistence.setExecutionPoint(agent, "users", List.of(Message.system("You manage users")), null);
        agent.callTool(createUser, JSON.objectNode().put("name", "Maria"));

        var report = persistence.rollbackToCheckpoint(checkpoint.checkpointId(), agent);

        assertThat(users.users()).containsExactly("Alex", "Bo");
        assertThat(report.performed())
                .extracting(InverseCall::original)
                .extracting(call -> call.arguments().path("name").asText())
                .containsExactly("Maria");
        assertThat(agent.messageHistory()).isEqualTo(checkpoint.messageHistory());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void aCompletedRunStartsFreshAndTheNextRunBuildsOnTheTombstone(Backend backend) {
        var persistence = AgentPersistence.builder()
                .storage(open(backend))
                .automaticPersistence(true)
                .build();
        var agent = new SimpleAgentContext(agentId);
        persistence.onNodeCompleted(agent, "n1", null, null);
        var tombstone = persistence.markRunCompleted(agent);

        var fresh = new SimpleAgentContext(agentId);
        var report = persistence.rollbackToLatestCheckpoint(fresh);
        assertThat(report.outcome()).isEqualTo(RollbackReport.Outcome.RUN_COMPLETED);
        assertThat(report.restoredCheckpoint()).isEmpty();

        var next = persistence.onNodeCompleted(fresh, "n1", null, null).orElseThrow();
        assertThat(next.parentCheckpointId()).isEqualTo(tombstone.checkpointId());
        assertThat(persistence.rollbackToLatestCheckpoint(fresh).restoredCheckpoint())
                .contains(next);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void writersRacingThroughTwoFacadesGetDistinctVersionsAndAnUnbrokenParentChain(Backend backend) throws Exception {
        var first = open(backend);
        // Two provider instances over one store where the backend shares storage across instances.
        var second = backend.provider().equals("inmemory") ? first : open(backend);
        var registry = new SimpleMeterRegistry();
        var observations = AgentObservations.registryFor(registry);
        var facades = List.of(
                AgentPersistence.builder()
                        .storage(first)
                        .maxConflictRetries(200)
                        .observationRegistry(observations)
                        .build(),
                AgentPersistence.builder()
                        .storage(second)
                        .maxConflictRetries(200)
                        .observationRegistry(observations)
                        .build());
        int threads = 4;
        int perThread = 5;
        var pool = Executors.newFixedThreadPool(threads);
        var start = new CountDownLatch(1);
        var futures = new ArrayList<Future<?>>();
        try {
            for (int t = 0; t < threads; t++) {
                var facade = facades.get(t % 2);
                var agent = new SimpleAgentContext(agentId).append(Message.user("writer " + t));
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        facade.createCheckpoint(agent, "n", null, null);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (var future : futures) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        List<AgentCheckpoint> stored = facades.get(0).checkpoints(agentId);
        assertThat(stored)
                .extracting(AgentCheckpoint::version)
                .containsExactlyElementsOf(java.util.stream.LongStream.range(0, threads * perThread)
                        .boxed()
                        .toList());
        for (int i = 1; i < stored.size(); i++) {
            assertThat(stored.get(i).parentCheckpointId())
                    .isEqualTo(stored.get(i - 1).checkpointId());
        }
        assertThat(registry.get("agent.persistence.checkpoint.create")
                        .tag("outcome", "success")
                        .timer()
                        .count())
                .isEqualTo(threads * perThread);
    }
}
