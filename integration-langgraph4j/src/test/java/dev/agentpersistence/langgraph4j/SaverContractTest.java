package dev.agentpersistence.langgraph4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.tck.ForwardingStorageProvider;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.bsc.langgraph4j.CompileConfig;
import org.bsc.langgraph4j.CompiledGraph;
import org.bsc.langgraph4j.GraphInput;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.action.AsyncNodeAction;
import org.bsc.langgraph4j.checkpoint.Checkpoint;
import org.bsc.langgraph4j.state.AgentState;
import org.bsc.langgraph4j.state.Channels;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a LangGraph4j saver must do (the scenarios of LangGraph4j's own saver tests, restated), run against one storage
 * technology per subclass.
 */
abstract class SaverContractTest implements SerializedStateContract {
    protected PersistenceStorageProvider<CheckpointFilter> provider;
    protected AgentPersistenceSaver saver;
    protected String threadId;
    private final List<String> threads = new ArrayList<>();

    /** A fresh provider over this test's storage; a second call opens the same storage again. */
    @Override
    public abstract PersistenceStorageProvider<CheckpointFilter> openProvider();

    /** The saver under test over {@code provider}; subclasses may configure it. */
    protected AgentPersistenceSaver newSaver(PersistenceStorageProvider<CheckpointFilter> provider) {
        return AgentPersistenceSaver.of(provider);
    }

    @BeforeEach
    void open() {
        provider = openProvider();
        saver = newSaver(provider);
        threadId = newThread();
    }

    @AfterEach
    void close() throws Exception {
        for (String thread : threads) {
            saver.release(config(thread));
        }
        provider.close();
    }

    protected String newThread() {
        String thread = "thread-" + UUID.randomUUID();
        threads.add(thread);
        return thread;
    }

    protected static RunnableConfig config(String thread) {
        return RunnableConfig.builder().threadId(thread).build();
    }

    private static Checkpoint checkpoint(String node, String next, Map<String, Object> state) {
        return Checkpoint.builder()
                .id(UUID.randomUUID().toString())
                .nodeId(node)
                .nextNodeId(next)
                .state(state)
                .build();
    }

    /** {@code n1 → n2 → n3}, interrupted before n2; {@code insideN2} runs inside n2 before it returns. */
    private static CompiledGraph<AgentState> graph(AgentPersistenceSaver saver, Runnable insideN2) throws Exception {
        return new StateGraph<>(Map.of("steps", Channels.appender(ArrayList::new)), AgentState::new)
                .addNode("n1", AsyncNodeAction.node_async(state -> Map.of("steps", "n1")))
                .addNode("n2", AsyncNodeAction.node_async(state -> {
                    insideN2.run();
                    return Map.of("steps", "n2");
                }))
                .addNode("n3", AsyncNodeAction.node_async(state -> Map.of("steps", "n3", "done", true)))
                .addEdge(StateGraph.START, "n1")
                .addEdge("n1", "n2")
                .addEdge("n2", "n3")
                .addEdge("n3", StateGraph.END)
                .compile(CompileConfig.builder()
                        .checkpointSaver(saver)
                        .interruptBefore("n2")
                        .build());
    }

    @Test
    void aGraphThatWaitedWhileAnotherResumedAndFinishedTheThreadIsRefusedAndAppendsNothing() throws Exception {
        RunnableConfig config = config(threadId);
        graph(newSaver(provider), () -> {}).invoke(Map.of("input", "go"), config);
        var inside = new java.util.concurrent.CountDownLatch(1);
        var goOn = new java.util.concurrent.CountDownLatch(1);
        var providerB = openProvider();
        var providerA = openProvider();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            var graphB = graph(newSaver(providerB), () -> {
                inside.countDown();
                try {
                    goOn.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            Future<?> b = pool.submit(() -> graphB.invoke(GraphInput.resume(), config));
            assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();

            var finished = graph(newSaver(providerA), () -> {})
                    .invoke(GraphInput.resume(), config)
                    .orElseThrow();
            assertThat(finished.data()).containsEntry("done", true);
            List<String> afterA = provider.getCheckpoints(saver.agentId(threadId)).stream()
                    .map(AgentCheckpoint::checkpointId)
                    .toList();

            goOn.countDown();
            assertThatThrownBy(() -> b.get(30, TimeUnit.SECONDS))
                    .hasStackTraceContaining(ThreadConflictException.class.getName())
                    .hasStackTraceContaining("another writer has moved the thread on");
            assertThat(provider.getCheckpoints(saver.agentId(threadId)))
                    .extracting(AgentCheckpoint::checkpointId)
                    .isEqualTo(afterA);
        } finally {
            goOn.countDown();
            pool.shutdownNow();
            providerA.close();
            providerB.close();
        }
    }

    @Test
    void aThreadAndAChatMemoryWithTheSameIdStayApart() {
        var chat = dev.agentpersistence.memory.ConversationStore.of(provider);
        chat.append(AgentPersistenceSaver.DEFAULT_PREFIX + threadId, dev.agentpersistence.Message.user("hi"));
        try {
            saver.put(config(threadId), checkpoint("a", "__END__", Map.of("k", "v")));

            assertThat(chat.load(AgentPersistenceSaver.DEFAULT_PREFIX + threadId)
                            .history())
                    .extracting(dev.agentpersistence.Message::content)
                    .containsExactly("hi");
            assertThat(saver.list(config(threadId))).hasSize(1);
            assertThat(saver.agentId(threadId)).isEqualTo("@langgraph4j/" + threadId);
        } finally {
            chat.delete(AgentPersistenceSaver.DEFAULT_PREFIX + threadId);
        }
    }

    @Test
    void aThreadWrittenWithoutNamespacesStaysReadableAndWritableWhenOptedIn() {
        String legacyId = AgentPersistenceSaver.DEFAULT_PREFIX + threadId;
        provider.saveCheckpoint(
                legacyId,
                AgentCheckpoint.builder()
                        .checkpointId("old-0")
                        .agentId(legacyId)
                        .version(0)
                        .createdAt(java.time.Instant.parse("2026-01-01T00:00:00Z"))
                        .nodeId("agent_1")
                        .state("input", com.fasterxml.jackson.databind.node.TextNode.valueOf("hello"))
                        .metadata(AgentPersistenceSaver.ID, "old-0")
                        .metadata(AgentPersistenceSaver.THREAD, threadId)
                        .metadata(AgentPersistenceSaver.NEXT_NODE, "agent_2")
                        .build());
        var legacy = AgentPersistenceSaver.builder(provider).withoutNamespace().build();
        try {
            assertThat(saver.get(config(threadId))).isEmpty();
            assertThat(legacy.get(config(threadId))).get().satisfies(c -> {
                assertThat(c.getId()).isEqualTo("old-0");
                assertThat(c.getState()).containsEntry("input", "hello");
            });
            legacy.put(config(threadId), checkpoint("agent_2", "__END__", Map.of("input", "hello")));
            assertThat(provider.getCheckpoints(legacyId))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(0L, 1L);
        } finally {
            provider.deleteCheckpoints(legacyId);
        }
    }

    @Test
    void anEmptyThreadHasNoCheckpoints() {
        assertThat(saver.list(config(threadId))).isEmpty();
        assertThat(saver.get(config(threadId))).isEmpty();
    }

    @Test
    void putThenGetAndListNewestFirst() {
        var first = checkpoint("agent_1", "agent_2", Map.of("input", "hello", "steps", List.of("agent_1")));
        var second = checkpoint("agent_2", "__END__", Map.of("input", "hello", "steps", List.of("agent_1", "agent_2")));

        RunnableConfig afterFirst = saver.put(config(threadId), first);
        saver.put(config(threadId), second);

        assertThat(afterFirst.checkPointId()).contains(first.getId());
        assertThat(saver.get(config(threadId))).get().satisfies(latest -> {
            assertThat(latest.getId()).isEqualTo(second.getId());
            assertThat(latest.getNodeId()).isEqualTo("agent_2");
            assertThat(latest.getNextNodeId()).isEqualTo("__END__");
            assertThat(latest.getState()).isEqualTo(second.getState());
        });
        assertThat(saver.get(config(threadId).withCheckPointId(first.getId())))
                .get()
                .extracting(Checkpoint::getNodeId)
                .isEqualTo("agent_1");
        assertThat(saver.list(config(threadId)))
                .extracting(Checkpoint::getId)
                .containsExactly(second.getId(), first.getId());
        assertThat(saver.get(config(threadId).withCheckPointId("no-such-checkpoint")))
                .isEmpty();
    }

    @Test
    void eachCheckpointIsOneAgentCheckpointWithTheDocumentedMapping() {
        var first = checkpoint("agent_1", "agent_2", Map.of("n", 1));
        var second = checkpoint("agent_2", "__END__", Map.of("n", 2));
        saver.put(config(threadId), first);
        saver.put(config(threadId), second);

        List<AgentCheckpoint> stored = provider.getCheckpoints("@langgraph4j/" + threadId);
        assertThat(stored).extracting(AgentCheckpoint::version).containsExactly(0L, 1L);
        assertThat(stored).extracting(AgentCheckpoint::checkpointId).containsExactly(first.getId(), second.getId());
        assertThat(stored).extracting(AgentCheckpoint::nodeId).containsExactly("agent_1", "agent_2");
        assertThat(stored.get(0).metadata())
                .containsEntry(AgentPersistenceSaver.NEXT_NODE, "agent_2")
                .containsEntry(AgentPersistenceSaver.THREAD, threadId);
        assertThat(stored.get(1).metadata()).containsEntry(AgentPersistenceSaver.NEXT_NODE, "__END__");
        assertThat(stored.get(1).parentCheckpointId()).isEqualTo(first.getId());
        assertThat(stored.get(0).state().get("n").intValue()).isEqualTo(1);
    }

    @Test
    void jsonStateValuesRoundTrip() {
        var nested = new LinkedHashMap<String, Object>();
        nested.put("role", "user");
        nested.put("content", "ünïcødé ✓ \"quoted\"");
        nested.put("nothing", null);
        var state = new LinkedHashMap<String, Object>();
        state.put("text", "hello");
        state.put("flag", true);
        state.put("int", 42);
        state.put("long", 1L << 40);
        state.put("big", new BigInteger("123456789012345678901234567890"));
        state.put("double", 0.25);
        state.put("decimal", new BigDecimal("1.10"));
        state.put("messages", List.of(nested, Map.of("role", "assistant", "content", "hi")));
        state.put("empty", List.of());
        saver.put(config(threadId), checkpoint("n", "m", state));

        Map<String, Object> read = saver.get(config(threadId)).orElseThrow().getState();
        assertThat(read)
                .containsEntry("text", "hello")
                .containsEntry("flag", true)
                .containsEntry("int", 42)
                .containsEntry("long", 1L << 40)
                .containsEntry("big", new BigInteger("123456789012345678901234567890"))
                .containsEntry("double", 0.25)
                .containsEntry("empty", List.of());
        assertThat(((Number) read.get("decimal")).doubleValue()).isEqualTo(1.1);
        assertThat(read.get("messages")).isEqualTo(state.get("messages"));
        // read back mutable, as a reducer appending to the list expects
        @SuppressWarnings("unchecked")
        List<Object> messages = (List<Object>) read.get("messages");
        messages.add("more");
    }

    @Test
    void aValueNeitherJsonNorSerializableFailsTypedAndWritesNothing() {
        record Pojo(String name) {}
        var state = Map.<String, Object>of("messages", List.of(Map.of("author", new Pojo("x"))));
        assertThatThrownBy(() -> saver.put(config(threadId), checkpoint("n", "__END__", state)))
                .isInstanceOfSatisfying(UnsupportedStateValueException.class, e -> {
                    assertThat(e.key()).isEqualTo("messages");
                    assertThat(e.path()).isEqualTo("messages[0].author");
                    assertThat(e.valueType()).endsWith("Pojo");
                    assertThat(e).hasCauseInstanceOf(java.io.NotSerializableException.class);
                })
                .hasMessageContaining("ObjectStreamStateSerializer");
        var jsonOnly = AgentPersistenceSaver.builder(provider).jsonOnly().build();
        assertThatThrownBy(() -> jsonOnly.put(config(threadId), checkpoint("n", "__END__", Map.of("x", Double.NaN))))
                .isInstanceOf(UnsupportedStateValueException.class)
                .hasMessageContaining("'x'")
                .hasMessageContaining("JSON has no NaN");
        assertThat(saver.list(config(threadId))).isEmpty();
    }

    @Test
    void aValueThatIsNotJsonIsStoredThroughTheStateSerializerAndReadsBackEqual() {
        record Point(int x, int y) implements java.io.Serializable {}
        var state = new LinkedHashMap<String, Object>();
        state.put("text", "hello");
        state.put("point", new Point(1, 2));
        state.put("nested", List.of(Map.of("at", new Point(3, 4))));
        state.put("nan", Double.NaN);
        saver.put(config(threadId), checkpoint("n", "__END__", state));

        assertThat(saver.get(config(threadId)).orElseThrow().getState()).isEqualTo(state);
        AgentCheckpoint stored =
                provider.getLatestCheckpoint(saver.agentId(threadId)).orElseThrow();
        assertThat(stored.metadata())
                .containsEntry(AgentPersistenceSaver.SERIALIZED_KEYS, "[\"nan\",\"nested\",\"point\"]");
        assertThat(stored.state().get("text").textValue()).isEqualTo("hello");
    }

    @Test
    void putWithACheckpointIdReplacesThatCheckpointInPlace() {
        var first = checkpoint("agent_1", "agent_2", Map.of("v", "one"));
        var second = checkpoint("agent_2", "agent_3", Map.of("v", "two"));
        saver.put(config(threadId), first);
        saver.put(config(threadId), second);

        // what CompiledGraph.updateState does: same id, new state, put with the config naming it
        var updated = Checkpoint.builder()
                .id(first.getId())
                .nodeId("agent_1")
                .nextNodeId("agent_2")
                .state(Map.of("v", "one, edited"))
                .build();
        RunnableConfig result = saver.put(config(threadId).withCheckPointId(first.getId()), updated);

        assertThat(result.checkPointId()).contains(first.getId());
        assertThat(saver.list(config(threadId)))
                .extracting(c -> c.getState().get("v"))
                .containsExactly("two", "one, edited");
        assertThat(saver.get(config(threadId).withCheckPointId(first.getId())))
                .get()
                .extracting(c -> c.getState().get("v"))
                .isEqualTo("one, edited");
        assertThat(provider.getCheckpoints(saver.agentId(threadId))).hasSize(3); // append-only underneath
        assertThat(saver.get(config(threadId)))
                .get()
                .extracting(Checkpoint::getId)
                .isEqualTo(second.getId());

        // replacing the newest checkpoint keeps it the newest
        var edited = Checkpoint.builder()
                .id(second.getId())
                .nodeId("agent_2")
                .nextNodeId("agent_3")
                .state(Map.of("v", "two, edited"))
                .build();
        saver.put(config(threadId).withCheckPointId(second.getId()), edited);
        assertThat(saver.get(config(threadId)))
                .get()
                .extracting(c -> c.getState().get("v"))
                .isEqualTo("two, edited");
        assertThat(saver.list(config(threadId))).hasSize(2);
    }

    @Test
    void putNamingAnUnknownCheckpointFails() {
        saver.put(config(threadId), checkpoint("a", "__END__", Map.of()));
        assertThatThrownBy(() ->
                        saver.put(config(threadId).withCheckPointId("missing"), checkpoint("a", "__END__", Map.of())))
                .isInstanceOf(NoSuchElementException.class)
                .hasMessageContaining("missing");
    }

    @Test
    void releaseClearsTheThreadAndReturnsItsCheckpoints() {
        var first = checkpoint("a", "b", Map.of("k", 1));
        var second = checkpoint("b", "__END__", Map.of("k", 2));
        saver.put(config(threadId), first);
        saver.put(config(threadId), second);

        var tag = saver.release(config(threadId));

        assertThat(tag.threadId()).isEqualTo(threadId);
        assertThat(tag.checkpoints()).extracting(Checkpoint::getId).containsExactly(second.getId(), first.getId());
        assertThat(saver.list(config(threadId))).isEmpty();
        saver.put(config(threadId), checkpoint("a", "__END__", Map.of()));
        assertThat(provider.getCheckpoints(saver.agentId(threadId)))
                .extracting(AgentCheckpoint::version)
                .containsExactly(0L);
    }

    @Test
    void threadsAreIsolatedAndTheDefaultThreadIsUsedWithoutOne() {
        String other = newThread();
        saver.put(config(threadId), checkpoint("a", "__END__", Map.of("who", "one")));
        saver.put(config(other), checkpoint("a", "__END__", Map.of("who", "other")));

        assertThat(saver.get(config(threadId)).orElseThrow().getState()).containsEntry("who", "one");
        assertThat(saver.get(config(other)).orElseThrow().getState()).containsEntry("who", "other");
        assertThat(saver.threadId(RunnableConfig.builder().build()))
                .isEqualTo(org.bsc.langgraph4j.checkpoint.BaseCheckpointSaver.THREAD_ID_DEFAULT);
    }

    @Test
    void theAgentIdPrefixIsConfigurable() {
        var prefixed =
                AgentPersistenceSaver.builder(provider).agentIdPrefix("team-a/").build();
        prefixed.put(config(threadId), checkpoint("a", "__END__", Map.of()));
        try {
            assertThat(provider.getCheckpoints("@langgraph4j/team-a/" + threadId))
                    .hasSize(1);
            assertThat(saver.list(config(threadId))).isEmpty();
        } finally {
            prefixed.release(config(threadId));
        }
    }

    @Test
    void aSecondSaverOverANewProviderSeesTheThread() {
        saver.put(config(threadId), checkpoint("a", "b", Map.of("k", "v")));
        try (var reopened = openProvider()) {
            var other = AgentPersistenceSaver.of(reopened);
            assertThat(other.get(config(threadId)))
                    .get()
                    .extracting(c -> c.getState().get("k"))
                    .isEqualTo("v");
            other.put(config(threadId), checkpoint("b", "__END__", Map.of("k", "w")));
        }
        // nothing cached: the first saver sees the other's write
        assertThat(saver.get(config(threadId)))
                .get()
                .extracting(c -> c.getState().get("k"))
                .isEqualTo("w");
    }

    @Test
    void twoSaversRacingOnOneThreadNeverForkSilently() throws Exception {
        saver.put(config(threadId), checkpoint("start", "a", Map.of("k", 0)));
        // Both savers read the latest version before either saves: the same next version for both.
        var barrier = new CyclicBarrier(2);
        var racing = new BarrierProvider(provider, barrier);
        var left = AgentPersistenceSaver.of(racing);
        var right = AgentPersistenceSaver.of(racing);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<RunnableConfig> a =
                    pool.submit(() -> left.put(config(threadId), checkpoint("left", "__END__", Map.of("k", 1))));
            Future<RunnableConfig> b =
                    pool.submit(() -> right.put(config(threadId), checkpoint("right", "__END__", Map.of("k", 2))));
            int conflicts = 0;
            for (Future<RunnableConfig> future : List.of(a, b)) {
                try {
                    future.get(30, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(ThreadConflictException.class);
                    var conflict = (ThreadConflictException) e.getCause();
                    assertThat(conflict.threadId()).isEqualTo(threadId);
                    assertThat(conflict.version()).isEqualTo(1L);
                    conflicts++;
                }
            }
            assertThat(conflicts).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
        List<AgentCheckpoint> stored = provider.getCheckpoints(saver.agentId(threadId));
        assertThat(stored).extracting(AgentCheckpoint::version).containsExactly(0L, 1L);
        assertThat(stored.get(1).parentCheckpointId()).isEqualTo(stored.get(0).checkpointId());
        racing.disarm();
        // the loser re-reads and continues from the winner's checkpoint
        Checkpoint latest = left.get(config(threadId)).orElseThrow();
        left.put(config(threadId), checkpoint("after", "__END__", Map.of("k", 3, "after", latest.getNodeId())));
        assertThat(provider.getCheckpoints(saver.agentId(threadId)))
                .extracting(AgentCheckpoint::version)
                .containsExactly(0L, 1L, 2L);
    }

    @Test
    void manyWritersOnOneThreadKeepALinearHistory() throws Exception {
        int writers = 4;
        int attempts = 10;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        var saved = new java.util.concurrent.atomic.AtomicInteger();
        try {
            var futures = new ArrayList<Future<?>>();
            for (int w = 0; w < writers; w++) {
                var own = AgentPersistenceSaver.of(provider);
                int writer = w;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < attempts; i++) {
                        try {
                            own.put(config(threadId), checkpoint("w" + writer, "__END__", Map.of("i", i)));
                            saved.incrementAndGet();
                        } catch (ThreadConflictException expected) {
                            // nothing written; the next attempt re-reads the latest version
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        List<AgentCheckpoint> stored = provider.getCheckpoints(saver.agentId(threadId));
        assertThat(stored).hasSize(saved.get());
        for (int i = 0; i < stored.size(); i++) {
            assertThat(stored.get(i).version()).isEqualTo(i);
            if (i > 0) {
                assertThat(stored.get(i).parentCheckpointId())
                        .isEqualTo(stored.get(i - 1).checkpointId());
            }
        }
    }

    /** Delegates to a provider; the latest-version reads of the two racing savers meet at a barrier. */
    private static final class BarrierProvider extends ForwardingStorageProvider<CheckpointFilter> {
        private final CyclicBarrier barrier;
        private final java.util.concurrent.atomic.AtomicBoolean armed =
                new java.util.concurrent.atomic.AtomicBoolean(true);

        void disarm() {
            armed.set(false);
        }

        BarrierProvider(PersistenceStorageProvider<CheckpointFilter> delegate, CyclicBarrier barrier) {
            super(delegate);
            this.barrier = barrier;
        }

        @Override
        public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
            var latest = super.getLatestCheckpoint(agentId, filter);
            if (barrier.isBroken() || !armed.get()) {
                return latest;
            }
            try {
                barrier.await(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return latest;
        }
    }
}
