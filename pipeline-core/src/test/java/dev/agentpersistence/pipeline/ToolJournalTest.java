package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.KeyedTool;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.Tool;
import dev.agentpersistence.pipeline.internal.ToolJournal;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The write-ahead tool journal in one JVM: a crash is simulated by an {@link Error} escaping the action (the runner
 * handles exceptions, not errors), which leaves the attempt open in storage just as a killed process does; a new
 * pipeline over the same storage then recovers it.
 */
class ToolJournalTest {
    private final PersistenceStorageProvider<CheckpointFilter> storage = Storages.inMemory();
    private final List<String> effects = new CopyOnWriteArrayList<>();
    private final List<String> inverseCalls = new CopyOnWriteArrayList<>();
    private final List<RetryFeedback> feedback = new CopyOnWriteArrayList<>();
    private final List<String> keys = new CopyOnWriteArrayList<>();

    private final KeyedTool book = KeyedTool.of("book", (args, key) -> {
        keys.add("book " + key);
        effects.add(args.path("item").asText());
        return TextNode.valueOf("booked");
    });
    private final KeyedTool reserve = KeyedTool.of("reserve", true, (args, key) -> {
        keys.add("reserve " + key);
        effects.add("reserved " + args.path("item").asText());
        return TextNode.valueOf("reserved");
    });
    private final RollbackToolRegistry inverses = RollbackToolRegistry.builder()
            .registerRollback("book", KeyedTool.of("unbook", (args, key) -> {
                inverseCalls.add("unbook " + args.path("item").asText() + " " + key);
                effects.remove(args.path("item").asText());
                return null;
            }))
            .registerRollback("reserve", KeyedTool.of("release", (args, key) -> {
                inverseCalls.add("release " + args.path("item").asText() + " " + key);
                effects.remove("reserved " + args.path("item").asText());
                return null;
            }))
            .build();

    /** Stands for the process dying: nothing in the runner catches it. */
    private static final class Crash extends Error {
        Crash() {
            super("simulated crash");
        }
    }

    @AfterEach
    void close() {
        storage.close();
    }

    @Test
    void everyCallIsJournaledBeforeTheToolRunsAndSettledEntriesAreTrimmed() {
        String journalId = ToolJournal.journalId("run-journaled");
        var seenBeforeRun = new CopyOnWriteArrayList<String>();
        Tool inspecting = Tool.of("inspect", args -> {
            AgentCheckpoint newest = storage.getLatestCheckpoint(journalId).orElseThrow();
            seenBeforeRun.add(newest.metadata().get("journal.kind") + " "
                    + newest.state().get("journal.entry").path("tool").asText());
            return TextNode.valueOf("ok");
        });
        var pipeline = pipeline(
                Node.of("first", ctx -> {
                    ctx.callTool(inspecting, args("a"));
                    ctx.callTool(inspecting, args("b"));
                    return ctx.state() + "1";
                }),
                Node.of("second", ctx -> ctx.state() + "2"));

        var result = pipeline.run("run-journaled", "");

        assertThat(result.isCompleted()).isTrue();
        assertThat(seenBeforeRun).containsExactly("INTENT inspect", "INTENT inspect");
        var checkpoint = storage.getCheckpoints(Pipeline.storedRunId("run-journaled")).stream()
                .filter(cp -> "first".equals(cp.nodeId()))
                .findFirst()
                .orElseThrow();
        long mark = Long.parseLong(checkpoint.metadata().get(ToolJournal.MARK_KEY));
        assertThat(storage.getCheckpoints(journalId))
                .extracting(AgentCheckpoint::version)
                .containsExactly(mark);
    }

    @Test
    void aCrashedAttemptIsUndoneNewestFirstWithItsKeysAndTheNodeRetriesWithFeedback() {
        var crash = new AtomicBoolean(true);
        NodeAction<String> action = ctx -> {
            ctx.retryFeedback().ifPresent(feedback::add);
            ctx.callTool(book, args("hotel"));
            ctx.callTool(book, args("car"));
            if (crash.getAndSet(false)) {
                throw new Crash();
            }
            return ctx.state() + " booked@" + ctx.attempt();
        };
        assertThatThrownBy(() -> pipeline(Node.of("booking", action)).run("run-crash", "trip"))
                .isInstanceOf(Crash.class);
        assertThat(effects).containsExactly("hotel", "car");
        List<String> firstKeys = List.copyOf(keys);

        var events = new RecordingListener();
        var registry = new SimpleMeterRegistry();
        var result = pipelineBuilder(Node.of("booking", action))
                .listener(events)
                .meterRegistry(registry)
                .build()
                .run("run-crash", "ignored");

        assertThat(result.isCompleted()).isTrue();
        assertThat(result.state()).isEqualTo("trip booked@2");
        assertThat(inverseCalls)
                .containsExactly(
                        "unbook car " + firstKeys.get(1).substring(5),
                        "unbook hotel " + firstKeys.get(0).substring(5));
        assertThat(effects).containsExactly("hotel", "car");
        assertThat(feedback).singleElement().satisfies(f -> {
            assertThat(f.retry()).isEqualTo(1);
            assertThat(f.exception()).isInstanceOf(AttemptAbandonedException.class);
            assertThat(((AttemptAbandonedException) f.exception()).possiblyDone())
                    .isEmpty();
            assertThat(f.rollback().performed()).hasSize(2);
            assertThat(f.toPrompt()).contains("was cut off", "Tool calls undone: 2");
        });
        assertThat(events.events())
                .filteredOn(PipelineEvent.AttemptRecovered.class::isInstance)
                .singleElement()
                .satisfies(e -> assertThat(((PipelineEvent.AttemptRecovered) e).attempt())
                        .isEqualTo(1));
        assertThat(registry.get(PipelineMetrics.NODE_RECOVERIES)
                        .tag("node", "booking")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(PipelineMetrics.INVERSE_CALLS)
                        .tag("node", "booking")
                        .tag("outcome", "success")
                        .counter()
                        .count())
                .isEqualTo(2);
    }

    @Test
    void aCallWithoutRecordedResultIsTreatedAsPossiblyDoneAndUndone() {
        var crash = new AtomicBoolean(true);
        KeyedTool dying = KeyedTool.of("book", (args, key) -> {
            effects.add(args.path("item").asText());
            if (crash.getAndSet(false)) {
                throw new Crash(); // the effect happened, the result was never journaled
            }
            return TextNode.valueOf("booked");
        });
        NodeAction<String> action = ctx -> {
            ctx.retryFeedback().ifPresent(feedback::add);
            ctx.callTool(dying, args("flight"));
            return ctx.state() + " done";
        };
        assertThatThrownBy(() -> pipeline(Node.of("booking", action)).run("run-midcall", "x"))
                .isInstanceOf(Crash.class);

        var result = pipeline(Node.of("booking", action)).run("run-midcall", "x");

        assertThat(result.isCompleted()).isTrue();
        assertThat(effects).containsExactly("flight");
        assertThat(feedback)
                .singleElement()
                .satisfies(f -> assertThat(((AttemptAbandonedException) f.exception()).possiblyDone())
                        .containsExactly("book (call booking#1.1)"));
    }

    @Test
    void anIdempotentToolGetsTheSameKeyOnEveryAttemptOthersAFreshOne() {
        var pipeline = pipeline(Node.<String>builder("reserving")
                .postcondition(Condition.of("second-attempt", s -> s.endsWith("@2") ? List.of() : List.of("not yet")))
                .action(ctx -> {
                    ctx.callTool(reserve, args("seat"));
                    ctx.callTool(book, args("meal"));
                    return ctx.state() + "@" + ctx.attempt();
                })
                .build());

        assertThat(pipeline.run("run-idem", "r").isCompleted()).isTrue();

        assertThat(keys).hasSize(4);
        assertThat(keys.get(0))
                .isEqualTo("reserve run-idem/reserving/reserve#1")
                .isEqualTo(keys.get(2));
        assertThat(keys.get(1)).startsWith("book ").isNotEqualTo(keys.get(3));
        assertThat(inverseCalls)
                .containsExactly(
                        "unbook meal " + keys.get(1).substring(5), "release seat run-idem/reserving/reserve#1");
        assertThat(effects).containsExactlyInAnyOrder("reserved seat", "meal");
    }

    @Test
    void aNodeCutOffOnItsLastAttemptFailsAfterTheUndo() {
        NodeAction<String> action = ctx -> {
            ctx.callTool(book, args("room"));
            throw new Crash();
        };
        Node<String> node = Node.<String>builder("last")
                .retryPolicy(RetryPolicy.noRetries())
                .action(action)
                .build();
        assertThatThrownBy(() -> pipeline(node).run("run-last", "s")).isInstanceOf(Crash.class);

        var result = pipeline(node).run("run-last", "s");

        assertThat(result.isFailed()).isTrue();
        assertThat(result.failure().orElseThrow().reason()).isEqualTo(PipelineFailure.Reason.RETRIES_EXHAUSTED);
        assertThat(result.failure().orElseThrow().exception()).isInstanceOf(AttemptAbandonedException.class);
        assertThat(effects).isEmpty();
    }

    @SafeVarargs
    private final Pipeline<String> pipeline(Node<String>... nodes) {
        return pipelineBuilder(nodes).build();
    }

    @SafeVarargs
    private final Pipeline.Builder<String> pipelineBuilder(Node<String>... nodes) {
        return Pipeline.builder("journal", StateCodec.jackson(String.class))
                .storage(storage)
                .rollbackTools(inverses)
                .nodes(List.of(nodes));
    }

    private static com.fasterxml.jackson.databind.JsonNode args(String item) {
        return JsonNodeFactory.instance.objectNode().put("item", item);
    }
}
