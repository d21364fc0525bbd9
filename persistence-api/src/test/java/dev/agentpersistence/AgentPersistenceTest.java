package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentpersistence.observation.AgentObservations;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AgentPersistenceTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00.123456789Z");

    private final HeapTestStorage storage = new HeapTestStorage();
    private final TickingClock clock = new TickingClock(T0);
    private final List<String> users = Collections.synchronizedList(new ArrayList<>());

    private final Tool createUser = Tool.of("createUser", args -> {
        users.add(args.path("name").asText());
        return JSON.textNode("created");
    });
    private final Tool removeUser = Tool.of("removeUser", args -> {
        users.remove(args.path("name").asText());
        return JSON.textNode("removed");
    });

    private AgentPersistence.Builder persistence() {
        return AgentPersistence.builder()
                .storage(storage)
                .clock(clock)
                .rollbackTools(RollbackToolRegistry.builder()
                        .registerRollback(createUser, removeUser)
                        .build());
    }

    private static com.fasterxml.jackson.databind.JsonNode name(String name) {
        return JSON.objectNode().put("name", name);
    }

    @Test
    void createCheckpointSnapshotsTheContextWithTheNextVersionAndParent() {
        var persistence = persistence().build();
        var ctx = new SimpleAgentContext("agent-1");
        Message hello = Message.user("hello");
        ctx.append(hello).putState("step", JSON.numberNode(1));

        var first = persistence.createCheckpoint(ctx, "plan", JSON.textNode("input"), "String");
        ctx.append(Message.assistant("hi")).putState("step", JSON.numberNode(2));
        var second = persistence.createCheckpoint(ctx, "write", null, null, Map.of("run", "r1"));

        assertThat(first.version()).isZero();
        assertThat(first.parentCheckpointId()).isNull();
        assertThat(first.createdAt()).isEqualTo(T0);
        assertThat(first.nodeId()).isEqualTo("plan");
        assertThat(first.lastInput()).isEqualTo(JSON.textNode("input"));
        assertThat(first.lastInputType()).isEqualTo("String");
        assertThat(first.messageHistory()).containsExactly(hello);
        assertThat(first.state()).containsEntry("step", JSON.numberNode(1));

        assertThat(second.version()).isEqualTo(1);
        assertThat(second.parentCheckpointId()).isEqualTo(first.checkpointId());
        assertThat(second.checkpointId()).isNotEqualTo(first.checkpointId());
        assertThat(second.createdAt()).isEqualTo(T0.plusMillis(1));
        assertThat(second.messageHistory()).hasSize(2);
        assertThat(second.metadata()).containsEntry("run", "r1");
        assertThat(persistence.checkpoints("agent-1")).containsExactly(first, second);
        assertThat(persistence.latestCheckpoint("agent-1")).contains(second);
        assertThat(persistence.checkpoint("agent-1", first.checkpointId())).contains(first);
    }

    @Test
    void checkpointIdsAreUniqueByDefault() {
        var persistence = persistence().build();
        var ctx = new SimpleAgentContext("a");
        var ids = new HashSet<String>();
        for (int i = 0; i < 50; i++) {
            ids.add(persistence.createCheckpoint(ctx, "n", null, null).checkpointId());
        }
        assertThat(ids).hasSize(50);
    }

    @Test
    void aConflictWithAnotherWriterIsRetriedOnTopOfItsCheckpoint() {
        var persistence = persistence().checkpointIds(counterIds("mine-")).build();
        var ctx = new SimpleAgentContext("agent-1");
        persistence.createCheckpoint(ctx, "a", null, null);
        var raced = new AtomicBoolean();
        storage.beforeSave(cp -> {
            if (cp.checkpointId().startsWith("mine-") && raced.compareAndSet(false, true)) {
                storage.saveCheckpoint(
                        "agent-1",
                        cp.toBuilder().checkpointId("theirs").nodeId("other").build());
            }
        });

        var mine = persistence.createCheckpoint(ctx, "b", null, null);

        assertThat(mine.version()).isEqualTo(2);
        assertThat(mine.parentCheckpointId()).isEqualTo("theirs");
        assertThat(persistence.checkpoints("agent-1"))
                .extracting(AgentCheckpoint::checkpointId)
                .containsExactly("mine-1", "theirs", "mine-2");
    }

    @Test
    void consecutiveSavesOfOneFacadeDoNotReadTheLatestCheckpointAgain() {
        var persistence = persistence().build();
        var ctx = new SimpleAgentContext("agent-1");
        var first = persistence.createCheckpoint(ctx, "a", null, null);
        int readsAfterFirst = storage.latestCalls();

        var second = persistence.createCheckpoint(ctx, "b", null, null);
        var third = persistence.createCheckpoint(ctx, "c", null, null);

        assertThat(storage.latestCalls()).isEqualTo(readsAfterFirst);
        assertThat(second.version()).isEqualTo(1);
        assertThat(third.version()).isEqualTo(2);
        assertThat(third.parentCheckpointId()).isEqualTo(second.checkpointId());
        assertThat(second.parentCheckpointId()).isEqualTo(first.checkpointId());
    }

    @Test
    void aStaleRememberedVersionIsReloadedWithoutUsingUpARetry() {
        var mine = persistence().maxConflictRetries(0).build();
        var theirs = persistence().build();
        var ctx = new SimpleAgentContext("agent-1");
        mine.createCheckpoint(ctx, "a", null, null);
        var other = theirs.createCheckpoint(ctx, "b", null, null);

        var next = mine.createCheckpoint(ctx, "c", null, null);

        assertThat(next.version()).isEqualTo(2);
        assertThat(next.parentCheckpointId()).isEqualTo(other.checkpointId());
        assertThat(mine.checkpoints("agent-1"))
                .extracting(AgentCheckpoint::nodeId)
                .containsExactly("a", "b", "c");
    }

    @Test
    void afterTheConfiguredRetriesTheConflictIsThrown() {
        var persistence = persistence().maxConflictRetries(2).build();
        var ctx = new SimpleAgentContext("agent-1");
        var stolen = new AtomicInteger();
        storage.beforeSave(cp -> {
            if (!cp.checkpointId().startsWith("theirs")) {
                storage.saveCheckpoint(
                        "agent-1",
                        cp.toBuilder()
                                .checkpointId("theirs-" + stolen.incrementAndGet())
                                .build());
            }
        });

        assertThatThrownBy(() -> persistence.createCheckpoint(ctx, "b", null, null))
                .isInstanceOf(CheckpointConflictException.class)
                .hasMessageContaining("agent-1")
                .hasMessageContaining("3 attempts")
                .satisfies(e ->
                        assertThat(((CheckpointConflictException) e).agentId()).isEqualTo("agent-1"));
        assertThat(stolen.get()).isEqualTo(3);
        assertThat(persistence.checkpoints("agent-1"))
                .extracting(AgentCheckpoint::checkpointId)
                .containsExactly("theirs-1", "theirs-2", "theirs-3");
    }

    @Test
    void concurrentWritersOnOneAgentAllGetDistinctVersions() throws Exception {
        var persistence = persistence().maxConflictRetries(100).build();
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            var start = new CountDownLatch(1);
            var futures = new ArrayList<Future<AgentCheckpoint>>();
            for (int i = 0; i < threads; i++) {
                var ctx = new SimpleAgentContext("shared").append(Message.user("writer " + i));
                futures.add(pool.submit(() -> {
                    start.await();
                    return persistence.createCheckpoint(ctx, "n", null, null);
                }));
            }
            start.countDown();
            for (var f : futures) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        var stored = persistence.checkpoints("shared");
        assertThat(stored).extracting(AgentCheckpoint::version).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
        for (int i = 1; i < stored.size(); i++) {
            assertThat(stored.get(i).parentCheckpointId())
                    .isEqualTo(stored.get(i - 1).checkpointId());
        }
    }

    @Test
    void onNodeCompletedCheckpointsOnlyInAutomaticMode() {
        var ctx = new SimpleAgentContext("agent-1");
        var manual = persistence().build();
        assertThat(manual.isAutomaticPersistence()).isFalse();
        assertThat(manual.onNodeCompleted(ctx, "n1", JSON.textNode("x"), "String"))
                .isEmpty();
        assertThat(manual.checkpoints("agent-1")).isEmpty();

        var automatic = persistence().automaticPersistence(true).build();
        var created = automatic.onNodeCompleted(ctx, "n1", JSON.textNode("x"), "String");
        assertThat(created).get().extracting(AgentCheckpoint::nodeId).isEqualTo("n1");
        assertThat(automatic.checkpoints("agent-1")).containsExactly(created.get());
    }

    @Test
    void rollbackToCheckpointUndoesLaterCallsNewestFirstAndRestoresTheContext() throws Exception {
        var persistence = persistence().build();
        var ctx = new SimpleAgentContext("agent-1").currentNodeId("users");
        ctx.callTool(createUser, name("Alex"));
        ctx.putState("count", JSON.numberNode(1));
        var checkpoint = persistence.createCheckpoint(ctx, "users", name("Alex"), "User");
        var daniel = recordedCall(ctx, createUser, "Daniel");
        var maria = recordedCall(ctx, createUser, "Maria");
        ctx.putState("count", JSON.numberNode(3)).currentNodeId("report");

        var report = persistence.rollbackToCheckpoint(checkpoint.checkpointId(), ctx);

        assertThat(users).containsExactly("Alex");
        assertThat(report.outcome()).isEqualTo(RollbackReport.Outcome.RESTORED);
        assertThat(report.restoredCheckpoint()).contains(checkpoint);
        assertThat(report.performed())
                .containsExactly(new InverseCall(maria, "removeUser"), new InverseCall(daniel, "removeUser"));
        assertThat(report.failures()).isEmpty();
        assertThat(report.isClean()).isTrue();
        assertThat(ctx.messageHistory()).isEqualTo(checkpoint.messageHistory());
        assertThat(ctx.state()).containsExactly(Map.entry("count", JSON.numberNode(1)));
        assertThat(ctx.currentNodeId()).isEqualTo("users");
        assertThat(ctx.input()).isEqualTo(name("Alex"));
    }

    @Test
    void rollbackUndoesByPositionWhenTheHistoryWasRewrittenBeforeTheCheckpoint() throws Exception {
        var persistence = persistence().build();
        var ctx = new SimpleAgentContext("agent-1");
        ctx.append(Message.system("prompt v1"));
        ctx.callTool(createUser, name("Alex"));
        var checkpoint = persistence.createCheckpoint(ctx, "users", null, null);
        // The framework compressed the history (first message rewritten, the rest kept), then two more users.
        var kept = ctx.messageHistory().subList(1, ctx.messageHistory().size());
        persistence.setExecutionPoint(ctx, "users", concat(List.of(Message.system("summary")), kept), null);
        var daniel = recordedCall(ctx, createUser, "Daniel");
        var maria = recordedCall(ctx, createUser, "Maria");

        var report = persistence.rollbackToCheckpoint(checkpoint.checkpointId(), ctx);

        assertThat(users).containsExactly("Alex");
        assertThat(report.performed()).extracting(InverseCall::original).containsExactly(maria, daniel);
        assertThat(ctx.messageHistory()).isEqualTo(checkpoint.messageHistory());
    }

    @Test
    void rollbackUndoesByPositionWhenTheHistoryWasTruncatedBelowTheCheckpoint() throws Exception {
        var persistence = persistence().build();
        var ctx = new SimpleAgentContext("agent-1");
        ctx.append(Message.system("prompt"));
        ctx.callTool(createUser, name("Alex"));
        ctx.callTool(createUser, name("Bo"));
        var checkpoint = persistence.createCheckpoint(ctx, "users", null, null);
        persistence.setExecutionPoint(ctx, "users", List.of(Message.system("prompt")), null);
        var maria = recordedCall(ctx, createUser, "Maria");

        var report = persistence.rollbackToCheckpoint(checkpoint.checkpointId(), ctx);

        assertThat(users).containsExactly("Alex", "Bo");
        assertThat(report.performed()).extracting(InverseCall::original).containsExactly(maria);
        assertThat(ctx.messageHistory()).isEqualTo(checkpoint.messageHistory());
    }

    @Test
    void aFailingInverseIsReportedAndTheContextIsStillRestored() throws Exception {
        var failure = new IllegalStateException("cannot remove Daniel");
        var persistence = persistence()
                .rollbackTools(RollbackToolRegistry.builder()
                        .registerRollback("createUser", "removeUser", args -> {
                            if (args.path("name").asText().equals("Daniel")) {
                                throw failure;
                            }
                            return removeUser.execute(args);
                        })
                        .build())
                .build();
        var ctx = new SimpleAgentContext("agent-1");
        var checkpoint = persistence.createCheckpoint(ctx, "start", null, null);
        var daniel = recordedCall(ctx, createUser, "Daniel");
        var search = ctx.recordToolCall("search", JSON.objectNode().put("q", "users"));
        var maria = recordedCall(ctx, createUser, "Maria");

        var report = persistence.rollbackToCheckpoint(checkpoint.checkpointId(), ctx);

        assertThat(users).containsExactly("Daniel");
        assertThat(report.performed()).extracting(InverseCall::original).containsExactly(maria);
        assertThat(report.failures()).containsExactly(new InverseFailure(daniel, "removeUser", failure));
        assertThat(report.withoutInverse()).containsExactly(search);
        assertThat(report.isClean()).isFalse();
        assertThat(ctx.messageHistory()).isEmpty();
    }

    @Test
    void rollbackToLatestRestoresTheNewestCheckpoint() throws Exception {
        var persistence = persistence().build();
        var ctx = new SimpleAgentContext("agent-1");
        persistence.createCheckpoint(ctx, "first", null, null);
        ctx.callTool(createUser, name("Alex"));
        var latest = persistence.createCheckpoint(ctx, "second", null, null);
        var maria = recordedCall(ctx, createUser, "Maria");

        var report = persistence.rollbackToLatestCheckpoint(ctx);

        assertThat(report.restoredCheckpoint()).contains(latest);
        assertThat(report.performed()).extracting(InverseCall::original).containsExactly(maria);
        assertThat(users).containsExactly("Alex");
        assertThat(ctx.currentNodeId()).isEqualTo("second");
    }

    @Test
    void rollbackToLatestWithoutCheckpointsRestoresNothing() throws Exception {
        var persistence = persistence().build();
        var ctx = new SimpleAgentContext("agent-1");
        ctx.callTool(createUser, name("Alex"));

        var report = persistence.rollbackToLatestCheckpoint(ctx);

        assertThat(report.outcome()).isEqualTo(RollbackReport.Outcome.NO_CHECKPOINT);
        assertThat(report.restoredCheckpoint()).isEmpty();
        assertThat(report.isRestored()).isFalse();
        assertThat(report.toolRollback()).isEqualTo(UndoResult.EMPTY);
        assertThat(users).containsExactly("Alex");
        assertThat(ctx.messageHistory()).hasSize(2);
    }

    @Test
    void aTombstoneAsLatestMeansStartFresh() throws Exception {
        var persistence = persistence().automaticPersistence(true).build();
        var ctx = new SimpleAgentContext("agent-1");
        var node = persistence.onNodeCompleted(ctx, "n1", null, null).orElseThrow();
        var tombstone = persistence.markRunCompleted(ctx);

        assertThat(tombstone.isTombstone()).isTrue();
        assertThat(tombstone.version()).isEqualTo(1);
        assertThat(tombstone.parentCheckpointId()).isEqualTo(node.checkpointId());
        assertThat(tombstone.createdAt()).isEqualTo(T0.plusMillis(1));

        ctx.callTool(createUser, name("Alex"));
        var report = persistence.rollbackToLatestCheckpoint(ctx);
        assertThat(report.outcome()).isEqualTo(RollbackReport.Outcome.RUN_COMPLETED);
        assertThat(report.restoredCheckpoint()).isEmpty();
        assertThat(users).containsExactly("Alex");
        assertThat(ctx.messageHistory()).hasSize(2);

        // A new run checkpoints on top of the tombstone; latest is restorable again.
        var next = persistence.createCheckpoint(ctx, "n1", null, null);
        assertThat(next.version()).isEqualTo(2);
        assertThat(next.parentCheckpointId()).isEqualTo(tombstone.checkpointId());
        assertThat(persistence.rollbackToLatestCheckpoint(ctx).restoredCheckpoint())
                .contains(next);
    }

    @Test
    void explicitRollbackToAMissingCheckpointOrATombstoneFails() {
        var persistence = persistence().build();
        var ctx = new SimpleAgentContext("agent-1");
        var tombstone = persistence.markRunCompleted(ctx);

        assertThatThrownBy(() -> persistence.rollbackToCheckpoint("nope", ctx))
                .isInstanceOf(CheckpointNotFoundException.class)
                .hasMessage("Agent 'agent-1' has no checkpoint 'nope'");
        assertThatThrownBy(() -> persistence.rollbackToCheckpoint(tombstone.checkpointId(), ctx))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tombstone");
        assertThatThrownBy(() -> persistence.rollbackToCheckpoint("", ctx))
                .isInstanceOf(InvalidIdentifierException.class);
    }

    @Test
    void checkpointsOfAnotherAgentAreNotVisible() {
        var persistence = persistence().build();
        var a = persistence.createCheckpoint(new SimpleAgentContext("a"), "n", null, null);
        assertThatThrownBy(() -> persistence.rollbackToCheckpoint(a.checkpointId(), new SimpleAgentContext("b")))
                .isInstanceOf(CheckpointNotFoundException.class);
        assertThat(persistence
                        .createCheckpoint(new SimpleAgentContext("b"), "n", null, null)
                        .version())
                .isZero();
    }

    @Test
    void setExecutionPointKeepsStateAndSavesNothing() {
        var persistence = persistence().build();
        var ctx = new SimpleAgentContext("agent-1").putState("k", JSON.textNode("v"));
        ctx.append(Message.user("old"));

        Message custom = Message.user("custom");
        persistence.setExecutionPoint(ctx, "target", List.of(custom), JSON.textNode("in"));

        assertThat(ctx.currentNodeId()).isEqualTo("target");
        assertThat(ctx.messageHistory()).containsExactly(custom);
        assertThat(ctx.input()).isEqualTo(JSON.textNode("in"));
        assertThat(ctx.state()).containsEntry("k", JSON.textNode("v"));
        assertThat(storage.saveCalls()).isZero();
    }

    @Test
    void metricsAreRecordedWhenARegistryIsGiven() throws Exception {
        var registry = new SimpleMeterRegistry();
        var persistence = persistence()
                .observationRegistry(AgentObservations.registryFor(registry))
                .build();
        var ctx = new SimpleAgentContext("agent-1");
        var checkpoint = persistence.createCheckpoint(ctx, "n", null, null);
        recordedCall(ctx, createUser, "Daniel");
        recordedCall(ctx, createUser, "Maria");
        persistence.rollbackToCheckpoint(checkpoint.checkpointId(), ctx);
        persistence.markRunCompleted(ctx);
        persistence.rollbackToLatestCheckpoint(ctx);
        assertThatThrownBy(() -> persistence.rollbackToCheckpoint("missing", ctx));

        assertThat(registry.get("agent.persistence.checkpoint.create")
                        .tags("kind", "checkpoint", "outcome", "success")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("agent.persistence.checkpoint.create")
                        .tags("kind", "tombstone", "outcome", "success")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("agent.persistence.rollback")
                        .tags("target", "checkpoint", "outcome", "restored")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("agent.persistence.rollback")
                        .tags("target", "latest", "outcome", "run_completed")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("agent.persistence.rollback")
                        .tags("target", "checkpoint", "outcome", "error")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("agent.persistence.rollback.inverse.calls")
                        .tag("outcome", "success")
                        .counter()
                        .count())
                .isEqualTo(2.0);
        assertThat(registry.get("agent.persistence.rollback.inverse.calls")
                        .tag("outcome", "failure")
                        .counter()
                        .count())
                .isZero();
    }

    @Test
    void conflictRetriesAreCounted() {
        var registry = new SimpleMeterRegistry();
        var persistence = persistence()
                .observationRegistry(AgentObservations.registryFor(registry))
                .maxConflictRetries(0)
                .build();
        var ctx = new SimpleAgentContext("agent-1");
        storage.beforeSave(cp -> {
            if (!cp.checkpointId().equals("theirs")) {
                storage.saveCheckpoint(
                        "agent-1", cp.toBuilder().checkpointId("theirs").build());
            }
        });
        assertThatThrownBy(() -> persistence.createCheckpoint(ctx, "n", null, null))
                .isInstanceOf(CheckpointConflictException.class)
                .hasMessageContaining("the only attempt");
        assertThat(registry.get("agent.persistence.checkpoint.create")
                        .tags("outcome", "conflict")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("agent.persistence.checkpoint.conflict.retries")
                        .counter()
                        .count())
                .isZero();
    }

    @Test
    void theConflictRetryCounterIsPublishedBeforeTheFirstConflict() {
        var registry = new SimpleMeterRegistry();
        persistence()
                .observationRegistry(AgentObservations.registryFor(registry))
                .build();

        assertThat(registry.get("agent.persistence.checkpoint.conflict.retries")
                        .counter()
                        .count())
                .isZero();
    }

    @Test
    void twoFacadesRacingOnOneAgentCountConflictRetries() throws Exception {
        var registry = new SimpleMeterRegistry();
        var first = persistence()
                .observationRegistry(AgentObservations.registryFor(registry))
                .build();
        var second = persistence()
                .observationRegistry(AgentObservations.registryFor(registry))
                .build();
        int rounds = 10;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            var start = new CountDownLatch(1);
            var futures = new ArrayList<Future<?>>();
            for (var facade : List.of(first, second)) {
                futures.add(pool.submit(() -> {
                    start.await();
                    var ctx = new SimpleAgentContext("shared");
                    for (int i = 0; i < rounds; i++) {
                        facade.createCheckpoint(ctx, "n" + i, null, null);
                        Thread.yield();
                    }
                    return null;
                }));
            }
            start.countDown();
            for (var f : futures) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        // and one save each in turn, which always finds the other facade's checkpoint first
        var ctx = new SimpleAgentContext("shared");
        second.createCheckpoint(ctx, "second", null, null);
        first.createCheckpoint(ctx, "first", null, null);

        assertThat(first.checkpoints("shared")).hasSize(2 * rounds + 2);
        assertThat(registry.get("agent.persistence.checkpoint.conflict.retries")
                        .counter()
                        .count())
                .isPositive();
    }

    @Test
    void builderDefaultsAndValidation() {
        var persistence = AgentPersistence.builder().storage(storage).build();
        assertThat(persistence.rollbackTools()).isSameAs(RollbackToolRegistry.EMPTY);
        assertThat(persistence.isAutomaticPersistence()).isFalse();
        assertThat(persistence.clock().getZone()).isEqualTo(ZoneOffset.UTC);
        assertThat(persistence.maxConflictRetries()).isEqualTo(5);
        assertThat(persistence.storage()).isSameAs(storage);
        assertThat(persistence.toString()).contains("automaticPersistence=false");

        assertThatThrownBy(() -> AgentPersistence.builder().build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("storage");
        assertThatThrownBy(() -> AgentPersistence.builder().maxConflictRetries(-1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AgentPersistence.builder().storage(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> AgentPersistence.builder().clock(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> persistence.createCheckpoint(null, "n", null, null))
                .isInstanceOf(NullPointerException.class);
        var bad = AgentPersistence.builder()
                .storage(storage)
                .checkpointIds(() -> "bad\nid")
                .build();
        assertThatThrownBy(() -> bad.createCheckpoint(new SimpleAgentContext("a"), "n", null, null))
                .isInstanceOf(InvalidIdentifierException.class);
    }

    private static ToolCall recordedCall(SimpleAgentContext ctx, Tool tool, String user) throws Exception {
        ctx.callTool(tool, name(user));
        var history = ctx.messageHistory();
        return history.get(history.size() - 2).toolCall();
    }

    private static List<Message> concat(List<Message> a, List<Message> b) {
        var all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static java.util.function.Supplier<String> counterIds(String prefix) {
        var counter = new AtomicInteger();
        return () -> prefix + counter.incrementAndGet();
    }

    /** Each reading advances one millisecond. */
    private static final class TickingClock extends Clock {
        private final AtomicInteger ticks = new AtomicInteger();
        private final Instant start;

        TickingClock(Instant start) {
            this.start = start;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Instant instant() {
            return start.plus(Duration.ofMillis(ticks.getAndIncrement()));
        }
    }
}
