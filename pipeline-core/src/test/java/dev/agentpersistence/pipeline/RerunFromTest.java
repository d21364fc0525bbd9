package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentAlreadyExistsException;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.ForkOrigin;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.Tool;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code rerunFrom}: a past run replayed from one of its nodes into a new run, the old run untouched. */
class RerunFromTest {
    private final PersistenceStorageProvider<CheckpointFilter> storage = Storages.inMemory();
    private final AtomicInteger version = new AtomicInteger(1);
    private final List<String> effects = new CopyOnWriteArrayList<>();
    private final AtomicBoolean crashInThird = new AtomicBoolean();

    /** Stands for the process dying mid-node. */
    private static final class Crash extends Error {
        Crash() {
            super("simulated crash");
        }
    }

    private final Tool publish = Tool.of("publish", args -> {
        effects.add(args.asText());
        return TextNode.valueOf("published");
    });

    private final Pipeline<String> pipeline = Pipeline.builder("replayable", StateCodec.jackson(String.class))
            .storage(storage)
            .rollbackTools(RollbackToolRegistry.builder()
                    .registerRollback("publish", "unpublish", args -> {
                        effects.remove(args.asText());
                        return null;
                    })
                    .build())
            .node(Node.of("first", ctx -> ctx.state() + " first"))
            .node(Node.of("second", ctx -> {
                ctx.callTool(publish, TextNode.valueOf(ctx.runId() + "/second"));
                return ctx.state() + " second(v" + version.get() + ")";
            }))
            .node(Node.of("third", ctx -> {
                ctx.callTool(publish, TextNode.valueOf(ctx.runId()));
                if (crashInThird.getAndSet(false)) {
                    throw new Crash();
                }
                return ctx.state() + " third";
            }))
            .build();

    @AfterEach
    void close() {
        storage.close();
    }

    @Test
    void aRunIsReplayedFromANodeIntoANewRunAndTheOldRunStaysAsItWas() {
        assertThat(pipeline.run("original", "in").state()).isEqualTo("in first second(v1) third");
        List<AgentCheckpoint> before = storage.getCheckpoints(Pipeline.storedRunId("original"));
        version.set(2);

        var replay = pipeline.rerunFrom("original", "second", "replay");

        assertThat(replay.isCompleted()).isTrue();
        assertThat(replay.resumedAfter()).contains("first");
        assertThat(replay.executedNodes()).containsExactly("second", "third");
        assertThat(replay.state()).isEqualTo("in first second(v2) third");
        assertThat(storage.getCheckpoints(Pipeline.storedRunId("original"))).isEqualTo(before);
        assertThat(pipeline.run("original", "ignored").state()).isEqualTo("in first second(v1) third");
        assertThat(pipeline.persistence().lineage(Pipeline.storedRunId("replay")))
                .singleElement()
                .satisfies(origin -> {
                    assertThat(origin.parentAgentId()).isEqualTo("@run/original");
                    assertThat(origin.parentCheckpointId())
                            .isEqualTo(before.get(1).checkpointId());
                });
        assertThat(storage.getCheckpoints(Pipeline.storedRunId("replay")).get(0).metadata())
                .containsEntry(ForkOrigin.PARENT_AGENT_KEY, "@run/original");
        assertThat(effects).containsExactly("original/second", "original", "replay/second", "replay");
    }

    @Test
    void replayingFromTheFirstNodeStartsFromTheOriginalInput() {
        pipeline.run("original", "in");

        var replay = pipeline.rerunFrom("original", "first", "from-start");

        assertThat(replay.executedNodes()).containsExactly("first", "second", "third");
        assertThat(replay.state()).isEqualTo("in first second(v1) third");
    }

    @Test
    void theReplayKeepsItsOwnToolJournalSoACrashInItIsRecovered() {
        pipeline.run("original", "in");
        crashInThird.set(true);
        assertThatThrownBy(() -> pipeline.rerunFrom("original", "third", "crashed-replay"))
                .isInstanceOf(Crash.class);
        assertThat(effects).containsExactly("original/second", "original", "crashed-replay");

        var resumed = pipeline.run("crashed-replay", "ignored");

        assertThat(resumed.isCompleted()).isTrue();
        assertThat(resumed.executedNodes()).containsExactly("third");
        assertThat(effects)
                .as("the fork point's journal mark is the old run's and does not hide the replay's entries")
                .containsExactly("original/second", "original", "crashed-replay");
    }

    @Test
    void unknownNodesRunsThatNeverGotThereAndTakenRunIdsAreRefused() {
        pipeline.run("original", "in");
        assertThatThrownBy(() -> pipeline.rerunFrom("original", "fourth", "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no node 'fourth'");
        assertThatThrownBy(() -> pipeline.rerunFrom("never-ran", "second", "y"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("never got to node 'second'");
        assertThatThrownBy(() -> pipeline.rerunFrom("original", "second", "original"))
                .isInstanceOf(IllegalArgumentException.class);
        pipeline.run("taken", "in");
        assertThatThrownBy(() -> pipeline.rerunFrom("original", "second", "taken"))
                .isInstanceOf(AgentAlreadyExistsException.class);
    }
}
