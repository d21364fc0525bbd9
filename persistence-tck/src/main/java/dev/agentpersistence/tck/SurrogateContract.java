package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.InvalidIdentifierException;
import dev.agentpersistence.Message;
import dev.agentpersistence.ToolCall;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Half an emoji (an unpaired UTF-16 surrogate) in a stored-as-text field is refused before anything is stored, with the
 * field and position named; whole emoji round-trip and are found by filters; message contents and state, kept in the
 * JSON document, round-trip exactly either way.
 */
abstract class SurrogateContract extends Contract {
    private static final String EMOJI = "\uD83D\uDE00";

    SurrogateContract(KitSession session) {
        super(session);
    }

    @Test
    @DisplayName("an unpaired surrogate in the agent id or checkpoint id is refused, naming the id and the index")
    void unpairedSurrogatesInIdsAreRefused() {
        String agent = agent("surrogate-ids");
        assertThatThrownBy(() -> provider().saveCheckpoint("a\uD800", Checkpoints.simple(agent, 0)))
                .isInstanceOf(InvalidIdentifierException.class)
                .hasMessageContaining("agentId")
                .hasMessageContaining("index 1");
        assertThatThrownBy(() ->
                        Checkpoints.builder(agent, 0).agentId(agent + "\uDC00").build())
                .isInstanceOf(InvalidIdentifierException.class)
                .hasMessageContaining("agentId");
        assertThatThrownBy(() ->
                        Checkpoints.builder(agent, 0).checkpointId("c\uDE00x").build())
                .isInstanceOf(InvalidIdentifierException.class)
                .hasMessageContaining("checkpointId")
                .hasMessageContaining("index 1");
        assertThatThrownBy(() -> provider().getCheckpoints("a\uD800")).isInstanceOf(InvalidIdentifierException.class);
        assertThat(provider().getCheckpoints(agent)).isEmpty();
    }

    @Test
    @DisplayName("an unpaired surrogate in the node id or a metadata key or value is refused, naming the field and the "
            + "index; nothing is stored")
    void unpairedSurrogatesInAttributesAreRefused() {
        String agent = agent("surrogate-attributes");
        List<Case> cases = List.of(
                new Case("nodeId", "index 1", b -> b.nodeId("x\uD800")),
                new Case("nodeId", "index 0", b -> b.nodeId("\uDE00x")),
                new Case("metadata key", "index 1", b -> b.metadata("k\uD800", "v")),
                new Case("metadata value", "index 1", b -> b.metadata("k", "x\uD800")),
                new Case("metadata value", "index 3", b -> b.metadata("k", EMOJI + "y\uDC00")));
        for (Case bad : cases) {
            AgentCheckpoint checkpoint =
                    bad.change().apply(Checkpoints.builder(agent, 0)).build();
            assertThatThrownBy(() -> provider().saveCheckpoint(agent, checkpoint))
                    .as(bad.field())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(bad.field())
                    .hasMessageContaining(bad.index())
                    .hasMessageContaining("unpaired surrogate");
            assertThat(provider().getCheckpoints(agent))
                    .as("stored after refusing %s", bad.field())
                    .isEmpty();
            assertThat(provider().getLatestCheckpoint(agent)).isEmpty();
        }
        assertThatThrownBy(() -> provider()
                        .getCheckpoints(
                                agent,
                                CheckpointFilter.builder().nodeId("x\uD800").build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nodeId");
        assertThatThrownBy(() -> provider()
                        .getLatestCheckpoint(
                                agent,
                                CheckpointFilter.builder()
                                        .metadata("k", "x\uD800")
                                        .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("metadata value");
    }

    @Test
    @DisplayName("whole emoji in node id and metadata round-trip and are found by filters, never confused with '?'")
    void wholeEmojiRoundTripAndAreFound() {
        String agent = agent("surrogate-emoji");
        AgentCheckpoint emoji = Checkpoints.builder(agent, 0)
                .checkpointId("cp-" + EMOJI)
                .nodeId("node-" + EMOJI)
                .metadata("key-" + EMOJI, "value-" + EMOJI)
                .message(Message.user("hello " + EMOJI))
                .build();
        AgentCheckpoint question = Checkpoints.builder(agent, 1)
                .nodeId("node-?")
                .metadata("key-" + EMOJI, "value-?")
                .build();
        AgentCheckpoint doubled = Checkpoints.builder(agent, 2)
                .nodeId("node-??")
                .metadata("key-??", "value-??")
                .build();
        saveAll(agent, List.of(emoji, question, doubled));

        assertThat(provider().getCheckpoints(agent)).containsExactly(emoji, question, doubled);
        assertThat(provider()
                        .getCheckpoints(
                                agent,
                                CheckpointFilter.builder()
                                        .nodeId("node-" + EMOJI)
                                        .build()))
                .containsExactly(emoji);
        assertThat(provider()
                        .getCheckpoints(
                                agent,
                                CheckpointFilter.builder()
                                        .metadata("key-" + EMOJI, "value-" + EMOJI)
                                        .build()))
                .containsExactly(emoji);
        assertThat(provider()
                        .getLatestCheckpoint(
                                agent,
                                CheckpointFilter.builder()
                                        .nodeId("node-" + EMOJI)
                                        .build()))
                .contains(emoji);
        assertThat(provider()
                        .getCheckpoints(
                                agent,
                                CheckpointFilter.builder().nodeId("node-?").build()))
                .containsExactly(question);
        assertThat(provider()
                        .getCheckpoints(
                                agent,
                                CheckpointFilter.builder()
                                        .metadata("key-" + EMOJI, "value-?")
                                        .build()))
                .containsExactly(question);
        assertThat(provider()
                        .getCheckpoints(
                                agent,
                                CheckpointFilter.builder()
                                        .metadata("key-??", "value-??")
                                        .build()))
                .containsExactly(doubled);
    }

    @Test
    @DisplayName("unpaired surrogates in message contents, tool calls and state values are kept exactly in the stored "
            + "document")
    void unpairedSurrogatesInDocumentValuesRoundTrip() {
        String agent = agent("surrogate-document");
        var arguments = JsonNodeFactory.instance.objectNode().put("half", "\uDC00tail");
        AgentCheckpoint checkpoint = Checkpoints.builder(agent, 0)
                .message(Message.assistant("half an emoji: \uD83D"))
                .message(new Message(
                        Message.Role.TOOL_CALL,
                        "x\uDE00",
                        new ToolCall("call-1", "tool\uD800", arguments),
                        java.util.Map.of("note", "\uDC00")))
                .state("half", JsonNodeFactory.instance.textNode("\uD800\uD800"))
                .lastInput(JsonNodeFactory.instance.textNode("in\uDFFF"))
                .lastInputType("type\uD800")
                .build();
        provider().saveCheckpoint(agent, checkpoint);
        assertThat(provider().getCheckpoints(agent)).containsExactly(checkpoint);
        assertThat(provider()
                        .getLatestCheckpoint(
                                agent, CheckpointFilter.builder().nodeId("node").build()))
                .contains(checkpoint);
    }

    @Test
    @DisplayName(
            "an unpaired surrogate in a state key or a JSON object key is refused (JSON readers refuse such names); "
                    + "nothing is stored")
    void unpairedSurrogatesInDocumentNamesAreRefused() {
        String agent = agent("surrogate-names");
        var arguments = JsonNodeFactory.instance.objectNode().put("half\uD800", "v");
        var nested = JsonNodeFactory.instance.objectNode();
        nested.putObject("outer").put("in\uDBFF", 1);
        List<AgentCheckpoint> refused = List.of(
                Checkpoints.builder(agent, 0)
                        .state("half\uDBFF", JsonNodeFactory.instance.textNode("v"))
                        .build(),
                Checkpoints.builder(agent, 0).state("s", nested).build(),
                Checkpoints.builder(agent, 0).lastInput(arguments).build(),
                Checkpoints.builder(agent, 0)
                        .message(new Message(
                                Message.Role.TOOL_CALL,
                                "c",
                                new ToolCall("call-1", "tool", arguments),
                                java.util.Map.of()))
                        .build(),
                Checkpoints.builder(agent, 0)
                        .message(Message.user("m").withMetadata("k\uDC00", "v"))
                        .build());
        for (AgentCheckpoint checkpoint : refused) {
            assertThatThrownBy(() -> provider().saveCheckpoint(agent, checkpoint))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("unpaired surrogate");
            assertThat(provider().getCheckpoints(agent)).isEmpty();
        }
    }

    private record Case(String field, String index, UnaryOperator<AgentCheckpoint.Builder> change) {}
}
