package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.InvalidIdentifierException;
import dev.agentpersistence.PersistenceStorageProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What a pipeline and its nodes accept when built. */
class PipelineBuildTest {
    private final PersistenceStorageProvider<CheckpointFilter> storage = Storages.inMemory();

    @AfterEach
    void close() {
        storage.close();
    }

    @Test
    void duplicateNodeNamesAreRejectedNamingTheDuplicate() {
        var builder = Pipeline.builder("dup", Draft.CODEC)
                .storage(storage)
                .node(Node.of("write", ctx -> ctx.state()))
                .node(Node.of("review", ctx -> ctx.state()))
                .node(Node.of("write", ctx -> ctx.state()));

        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "pipeline 'dup' has two nodes named 'write' (positions 1 and 3); node names must be unique");
    }

    @Test
    void aPipelineNeedsNodesAndExactlyOneWayToStoreCheckpoints() {
        assertThatThrownBy(() ->
                        Pipeline.builder("p", Draft.CODEC).storage(storage).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has no nodes");
        assertThatThrownBy(() -> Pipeline.builder("p", Draft.CODEC)
                        .node(Node.of("a", ctx -> ctx.state()))
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("needs storage");
        var facade = AgentPersistence.builder().storage(storage).build();
        assertThatThrownBy(() -> Pipeline.builder("p", Draft.CODEC)
                        .persistence(facade)
                        .storage(storage)
                        .node(Node.of("a", ctx -> ctx.state()))
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not both");
        var pipeline = Pipeline.builder("p", Draft.CODEC)
                .persistence(facade)
                .node(Node.of("a", ctx -> ctx.state()))
                .build();
        assertThat(pipeline.persistence()).isSameAs(facade);
        assertThat(pipeline.nodes()).extracting(Node::name).containsExactly("a");
        assertThat(pipeline.run("via-facade", Draft.empty()).isCompleted()).isTrue();
        assertThatThrownBy(() -> Pipeline.builder(" ", Draft.CODEC)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void nodeNamesMustBeUsableAsCheckpointNodeIds() {
        assertThatThrownBy(() -> Node.builder("__start__"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reserved");
        assertThatThrownBy(() -> Node.builder(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Node.builder("a\nb")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Node.builder("x").build())
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("has no action");
    }

    @Test
    void runRejectsInvalidRunIdsAndMissingInput() {
        var pipeline = Pipeline.builder("p", Draft.CODEC)
                .storage(storage)
                .node(Node.of("a", ctx -> ctx.state()))
                .build();
        assertThatThrownBy(() -> pipeline.run("", Draft.empty())).isInstanceOf(InvalidIdentifierException.class);
        assertThatThrownBy(() -> pipeline.run("r", null)).isInstanceOf(NullPointerException.class);
    }
}
