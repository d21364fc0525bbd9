package dev.agentpersistence.koog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.koog.agents.snapshot.feature.AgentCheckpointData;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Koog graph agent with automatic persistence over one storage technology per subclass: every node is checkpointed, a
 * failed run resumes from our store in a new agent over a new provider, and two writers of one session never fork it.
 */
abstract class AgentRunContractTest {
    private final List<PersistenceStorageProvider<?>> opened = new ArrayList<>();
    protected String session;

    /** A fresh provider over this test's storage; a second call opens the same storage again. */
    protected abstract PersistenceStorageProvider<?> openProvider();

    private PersistenceStorageProvider<?> open() {
        PersistenceStorageProvider<?> provider = openProvider();
        opened.add(provider);
        return provider;
    }

    @BeforeEach
    void newSession() {
        session = "report-" + UUID.randomUUID();
    }

    @AfterEach
    void closeAll() throws Exception {
        KoogCheckpointStorage.of(opened.get(0)).deleteSession(session);
        for (var provider : opened) {
            provider.close();
        }
    }

    @Test
    void everyNodeIsCheckpointedAndTheFinishedRunEndsWithATombstone() {
        var provider = open();
        var executor = new ScriptedExecutor();

        String output =
                WriterAgent.create(KoogCheckpointStorage.of(provider), executor).run("q3 report", session);

        assertThat(output).isEqualTo(WriterAgent.expectedOutput("q3 report"));
        List<AgentCheckpoint> records = provider.getCheckpoints("@koog/" + session);
        assertThat(records).extracting(AgentCheckpoint::version).containsExactly(0L, 1L, 2L, 3L);
        assertThat(records.subList(0, 3))
                .extracting(AgentCheckpoint::nodeId)
                .containsExactly("writer/writer/plan", "writer/writer/draft", "writer/writer/review");
        assertThat(records.get(3).isTombstone()).isTrue();
        assertThat(records.subList(0, 3))
                .extracting(r -> r.messageHistory().size())
                .containsExactly(3, 5, 7);
        assertThat(records.get(2).messageHistory().get(6).content()).isEqualTo(output);
        assertThat(records.get(1).lastInput().asText()).isEqualTo("draft: plan: q3 report -> done -> done");
    }

    @Test
    void sessionsAreIsolatedAndAnUnknownSessionIsEmpty() throws Exception {
        var storage = KoogCheckpointStorage.of(open());
        String other = session + "-other";
        var history = CheckpointMappingTest.everyKindOfMessage();
        storage.saveCheckpointAsync(session, CheckpointMappingTest.checkpoint("mine", 0, history))
                .get();
        storage.saveCheckpointAsync(other, CheckpointMappingTest.checkpoint("theirs", 0, history.subList(0, 1)))
                .get();

        assertThat(storage.getCheckpointsAsync(session, null).get())
                .extracting(AgentCheckpointData::getCheckpointId)
                .containsExactly("mine");
        assertThat(storage.getLatestCheckpointAsync(other, null).get().getMessageHistory())
                .hasSize(1);
        assertThat(storage.getCheckpointsAsync(session + "-unknown", null).get())
                .isEmpty();
        assertThat(storage.getLatestCheckpointAsync(session + "-unknown", null).get())
                .isNull();
        assertThat(storage.deleteSession(other)).isEqualTo(1);
        assertThat(storage.getCheckpointsAsync(session, null).get()).hasSize(1);
    }

    @Test
    void aFailedRunResumesAfterTheLastFinishedNodeInANewAgentOverANewProvider() {
        var failing = new ScriptedExecutor();
        var firstAttempt = new AtomicBoolean(true);
        var broken = WriterAgent.create(KoogCheckpointStorage.of(open()), failing, input -> {
            if (firstAttempt.getAndSet(false)) {
                throw new IllegalStateException("draft failed");
            }
        });
        assertThatThrownBy(() -> broken.run("q4 report", session)).hasStackTraceContaining("draft failed");

        var executor = new ScriptedExecutor();
        var resumedProvider = open();
        String output = WriterAgent.create(KoogCheckpointStorage.of(resumedProvider), executor)
                .run("q4 report", session);

        assertThat(output).isEqualTo(WriterAgent.expectedOutput("q4 report"));
        assertThat(executor.requests("plan: q4 report"))
                .as("plan was not run again")
                .isZero();
        assertThat(executor.requests("draft: plan: q4 report -> done")).isEqualTo(1);
        List<AgentCheckpoint> records = resumedProvider.getCheckpoints("@koog/" + session);
        assertThat(records)
                .extracting(AgentCheckpoint::nodeId)
                .containsExactly(
                        "writer/writer/plan",
                        "writer/writer/draft",
                        "writer/writer/review",
                        AgentCheckpoint.TOMBSTONE_NODE_ID);
        assertThat(records.get(2).messageHistory())
                .extracting(dev.agentpersistence.Message::content)
                .containsExactly(
                        "You write short reports.",
                        "plan: q4 report",
                        "plan: q4 report -> done",
                        "draft: plan: q4 report -> done",
                        "draft: plan: q4 report -> done -> done",
                        "review: draft: plan: q4 report -> done -> done",
                        WriterAgent.expectedOutput("q4 report"));
    }

    @Test
    void twoWritersTakingTheSameVersionNeverForkTheSession() throws Exception {
        var first = KoogCheckpointStorage.of(open());
        var second = KoogCheckpointStorage.of(open());
        var history = CheckpointMappingTest.everyKindOfMessage();
        first.saveCheckpointAsync(session, CheckpointMappingTest.checkpoint("base", 0, history.subList(0, 2)))
                .get();

        var barrier = new CyclicBarrier(2);
        var a = CompletableFuture.supplyAsync(
                () -> save(first, barrier, CheckpointMappingTest.checkpoint("writer-a", 1, history)));
        var b = CompletableFuture.supplyAsync(
                () -> save(second, barrier, CheckpointMappingTest.checkpoint("writer-b", 1, history.subList(0, 4))));
        List<Throwable> outcomes = Arrays.asList(a.get(30, TimeUnit.SECONDS), b.get(30, TimeUnit.SECONDS));

        assertThat(outcomes).filteredOn(o -> o == null).hasSize(1);
        Throwable refused = outcomes.stream().filter(o -> o != null).findFirst().orElseThrow();
        assertThat(refused)
                .isInstanceOf(KoogCheckpointConflictException.class)
                .hasMessageContaining(session)
                .hasMessageContaining("version 1");
        var conflict = (KoogCheckpointConflictException) refused;
        assertThat(conflict.sessionId()).isEqualTo(session);
        assertThat(conflict.version()).isEqualTo(1);
        List<AgentCheckpointData> stored =
                first.getCheckpointsAsync(session, null).get();
        assertThat(stored)
                .extracting(AgentCheckpointData::getCheckpointId)
                .containsExactly("base", conflict.checkpointId().equals("writer-a") ? "writer-b" : "writer-a");

        // an identical save again (a retry) is no conflict
        AgentCheckpointData winner = stored.get(1);
        first.saveCheckpointAsync(session, winner).get();
        assertThat(second.getCheckpointsAsync(session, null).get()).hasSize(2);
    }

    @Test
    @SuppressWarnings("unchecked")
    void anAgentThatLosesTheVersionRaceStopsWithAConflictAndWritesNothing() throws Exception {
        var store = (PersistenceStorageProvider<CheckpointFilter>) open();
        var otherJvm = KoogCheckpointStorage.of(open());
        var racing = new RacingWriterStore(store, "writer/writer/plan", latest -> {
            AgentCheckpointData theirs = CheckpointMappingTest.checkpoint(
                    "other-writer", latest.version() + 1, CheckpointMappingTest.everyKindOfMessage());
            otherJvm.saveCheckpointAsync(session, theirs).join();
        });
        var agent = WriterAgent.create(KoogCheckpointStorage.of(racing), new ScriptedExecutor());

        assertThatThrownBy(() -> agent.run("q1 report", session))
                .hasStackTraceContaining(KoogCheckpointConflictException.class.getName())
                .hasStackTraceContaining("version 1 was taken by another writer");

        assertThat(store.getCheckpoints("@koog/" + session))
                .extracting(AgentCheckpoint::checkpointId)
                .hasSize(2)
                .endsWith("other-writer");
    }

    @Test
    void anAgentThatWaitedWhileAnotherResumedAndFinishedTheSessionIsRefusedAndAppendsNothing() throws Exception {
        var firstAttempt = new AtomicBoolean(true);
        var broken = WriterAgent.create(KoogCheckpointStorage.of(open()), new ScriptedExecutor(), input -> {
            if (firstAttempt.getAndSet(false)) {
                throw new IllegalStateException("draft failed");
            }
        });
        assertThatThrownBy(() -> broken.run("q5 report", session)).hasStackTraceContaining("draft failed");

        var inside = new java.util.concurrent.CountDownLatch(1);
        var goOn = new java.util.concurrent.CountDownLatch(1);
        var agentB = WriterAgent.create(KoogCheckpointStorage.of(open()), new ScriptedExecutor(), input -> {
            inside.countDown();
            try {
                goOn.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        var b = CompletableFuture.supplyAsync(() -> agentB.run("q5 report", session));
        try {
            assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();
            var storeA = open();
            String output = WriterAgent.create(KoogCheckpointStorage.of(storeA), new ScriptedExecutor())
                    .run("q5 report", session);
            assertThat(output).isEqualTo(WriterAgent.expectedOutput("q5 report"));
            String agentId = KoogCheckpointStorage.of(storeA).agentId(session);
            List<String> afterA = storeA.getCheckpoints(agentId).stream()
                    .map(AgentCheckpoint::checkpointId)
                    .toList();
            assertThat(storeA.getLatestCheckpoint(agentId).orElseThrow().isTombstone())
                    .isTrue();

            goOn.countDown();
            assertThatThrownBy(() -> b.get(30, TimeUnit.SECONDS))
                    .hasStackTraceContaining(KoogCheckpointConflictException.class.getName())
                    .hasStackTraceContaining("moved the session on");
            assertThat(storeA.getCheckpoints(agentId))
                    .extracting(AgentCheckpoint::checkpointId)
                    .isEqualTo(afterA);
        } finally {
            goOn.countDown();
        }
    }

    @Test
    void aSessionAndAChatMemoryWithTheSameIdStayApart() throws Exception {
        var provider = open();
        var chat = dev.agentpersistence.memory.ConversationStore.of(provider);
        chat.append(KoogCheckpointStorage.DEFAULT_AGENT_ID_PREFIX + session, dev.agentpersistence.Message.user("hi"));
        var storage = KoogCheckpointStorage.of(provider);
        try {
            storage.saveCheckpointAsync(
                            session,
                            CheckpointMappingTest.checkpoint("mine", 0, CheckpointMappingTest.everyKindOfMessage()))
                    .get();
            assertThat(chat.load(KoogCheckpointStorage.DEFAULT_AGENT_ID_PREFIX + session)
                            .history())
                    .extracting(dev.agentpersistence.Message::content)
                    .containsExactly("hi");
            assertThat(storage.getCheckpointsAsync(session, null).get())
                    .extracting(AgentCheckpointData::getCheckpointId)
                    .containsExactly("mine");
        } finally {
            chat.delete(KoogCheckpointStorage.DEFAULT_AGENT_ID_PREFIX + session);
        }
    }

    @Test
    void aSessionWrittenWithoutNamespacesStaysReadableAndWritableWhenOptedIn() throws Exception {
        var provider = open();
        var legacy = KoogCheckpointStorage.builder(provider).withoutNamespace().build();
        var history = CheckpointMappingTest.everyKindOfMessage();
        // what earlier versions stored, under 'koog:<session>'
        provider.saveCheckpoint(
                "koog:" + session,
                KoogCheckpoints.toRecord(
                        "koog:" + session,
                        session,
                        CheckpointMappingTest.checkpoint("old", 0, history.subList(0, 2)),
                        new MessageMemo()));
        try {
            assertThat(KoogCheckpointStorage.of(provider)
                            .getCheckpointsAsync(session, null)
                            .get())
                    .isEmpty();
            assertThat(legacy.getLatestCheckpointAsync(session, null).get().getCheckpointId())
                    .isEqualTo("old");
            legacy.saveCheckpointAsync(session, CheckpointMappingTest.checkpoint("next", 1, history))
                    .get();
            assertThat(provider.getCheckpoints("koog:" + session))
                    .extracting(AgentCheckpoint::checkpointId)
                    .containsExactly("old", "next");
        } finally {
            legacy.deleteSession(session);
        }
    }

    /** Saves once both writers are ready; the failure, or {@code null} when the save went through. */
    private Throwable save(KoogCheckpointStorage storage, CyclicBarrier barrier, AgentCheckpointData checkpoint) {
        try {
            barrier.await(30, TimeUnit.SECONDS);
            storage.saveCheckpointAsync(session, checkpoint).get();
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            return e;
        }
    }
}
