package dev.agentpersistence.tck;

import static dev.agentpersistence.tck.Checkpoints.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.ToolCall;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Saved checkpoints read back equal in every field. */
abstract class RoundTripContract extends Contract {

    RoundTripContract(KitSession session) {
        super(session);
    }

    private void assertReadsBack(String agentId, AgentCheckpoint expected) {
        var provider = provider();
        assertThat(provider.getCheckpoints(agentId)).as("getCheckpoints").containsExactly(expected);
        assertThat(provider.getLatestCheckpoint(agentId))
                .as("getLatestCheckpoint")
                .contains(expected);
    }

    @Test
    @DisplayName("a checkpoint with every field set reads back equal through getCheckpoints and getLatestCheckpoint")
    void everyField() {
        String agent = agent("round-trip");
        var checkpoint = Checkpoints.full(agent, 3);
        provider().saveCheckpoint(agent, checkpoint);
        assertReadsBack(agent, checkpoint);
        var read = provider().getCheckpoints(agent).get(0);
        assertThat(read.checkpointId()).isEqualTo("full-3");
        assertThat(read.agentId()).isEqualTo(agent);
        assertThat(read.version()).isEqualTo(3);
        assertThat(read.createdAt()).isEqualTo(checkpoint.createdAt());
        assertThat(read.nodeId()).isEqualTo("write-section ✍");
        assertThat(read.lastInput()).isEqualTo(checkpoint.lastInput());
        assertThat(read.lastInputType()).isEqualTo("com.example.SectionRequest<List<String>>");
        assertThat(read.messageHistory()).isEqualTo(checkpoint.messageHistory());
        assertThat(read.messageHistory().get(3).toolCall().arguments())
                .isEqualTo(json(
                        "{\"path\":\"docs/intro.md\",\"content\":\"# Intro\\n\",\"overwrite\":false,\"mode\":420}"));
        assertThat(read.state()).isEqualTo(checkpoint.state());
        assertThat(read.metadata()).isEqualTo(checkpoint.metadata());
        assertThat(read.parentCheckpointId()).isEqualTo("full-2");
    }

    @Test
    @DisplayName("JSON values keep their type and value: ints, longs, big integers, decimals, booleans, nulls, nested "
            + "containers")
    void jsonTypes() {
        String agent = agent("json-types");
        var checkpoint = Checkpoints.full(agent, 0);
        provider().saveCheckpoint(agent, checkpoint);
        var state = provider().getCheckpoints(agent).get(0).state();
        assertThat(state.get("count").isInt()).as("42 is an int").isTrue();
        assertThat(state.get("long").longValue()).isEqualTo(9007199254740993L);
        assertThat(state.get("bigInteger").bigIntegerValue()).hasToString("123456789012345678901234567890");
        assertThat(state.get("decimal").doubleValue()).isEqualTo(0.1);
        assertThat(state.get("negative").doubleValue()).isEqualTo(-17250.0);
        assertThat(state.get("flag").isBoolean()).isTrue();
        assertThat(state.get("nothing").isNull()).as("JSON null state value").isTrue();
        assertThat(state.get("")).isEqualTo(json("\"the empty key\""));
        assertThat(state.get("dotted.key$with[chars]")).isEqualTo(json("[1,[2,[3,{\"deep\":[null,true,\"x\"]}]]]"));
        assertThat(state).isEqualTo(checkpoint.state());
    }

    @Test
    @DisplayName("a null lastInput stays null and a JSON null lastInput stays JSON null")
    void nullVersusJsonNull() {
        String agent = agent("null-input");
        var javaNull = Checkpoints.builder(agent, 0).lastInput(null).build();
        var jsonNull = Checkpoints.builder(agent, 1).lastInput(json("null")).build();
        saveAll(agent, List.of(javaNull, jsonNull));
        var read = provider().getCheckpoints(agent);
        assertThat(read).containsExactly(javaNull, jsonNull);
        assertThat(read.get(0).lastInput()).as("null lastInput").isNull();
        assertThat(read.get(1).lastInput()).as("JSON null lastInput").isNotNull();
        assertThat(read.get(1).lastInput().isNull()).isTrue();
    }

    @Test
    @DisplayName("a checkpoint with only the required fields reads back with nulls and empty collections")
    void minimal() {
        String agent = agent("minimal");
        var checkpoint = Checkpoints.minimal(agent, 0);
        provider().saveCheckpoint(agent, checkpoint);
        assertReadsBack(agent, checkpoint);
        var read = provider().getCheckpoints(agent).get(0);
        assertThat(read.nodeId()).isNull();
        assertThat(read.lastInput()).isNull();
        assertThat(read.lastInputType()).isNull();
        assertThat(read.parentCheckpointId()).isNull();
        assertThat(read.messageHistory()).isEmpty();
        assertThat(read.state()).isEmpty();
        assertThat(read.metadata()).isEmpty();
    }

    @Test
    @DisplayName("createdAt keeps every nanosecond")
    void nanoseconds() {
        String agent = agent("nanos");
        var instants = List.of(
                Instant.parse("2026-01-01T00:00:00.000000001Z"),
                Instant.parse("2026-01-01T00:00:00.999999999Z"),
                Instant.parse("2026-01-01T00:00:00.123456789Z"),
                Instant.parse("2026-01-01T00:00:00.000001001Z"),
                Instant.parse("2026-01-01T00:00:00Z"),
                Instant.parse("1970-01-01T00:00:00.000000001Z"),
                Instant.parse("2099-12-31T23:59:59.999999999Z"));
        var saved = new ArrayList<AgentCheckpoint>();
        for (int v = 0; v < instants.size(); v++) {
            saved.add(Checkpoints.builder(agent, v).createdAt(instants.get(v)).build());
        }
        saveAll(agent, saved);
        var read = provider().getCheckpoints(agent);
        assertThat(read).extracting(AgentCheckpoint::createdAt).containsExactlyElementsOf(instants);
        assertThat(read).containsExactlyElementsOf(saved);
    }

    @Test
    @DisplayName("unicode, quotes, backslashes and control characters in text survive unchanged")
    void unicodeText() {
        String agent = agent("unicode");
        String tricky =
                "ünïcödé 中文 日本語 한국어 עברית العربية 🙂👩‍👩‍👧 e\u0301 \uFEFF \u2028\u2029 \t\n\r \u0001\u001f \u0000 "
                        + "\"double\" 'single' \\back\\slash\\ </script> ${x} %s %2F ' OR 1=1 --";
        var checkpoint = Checkpoints.builder(agent, 0)
                .nodeId("nœud 🙂")
                .lastInput(json("{\"text\":" + jsonString(tricky) + ",\"🔑\":\"värde\"}"))
                .lastInputType("型 🙂")
                .messageHistory(List.of(
                        Message.user(tricky),
                        Message.assistant(tricky).withMetadata("ключ 🙂", tricky),
                        Message.toolCall(
                                new ToolCall("call-ü", "tööl 🙂", json("{\"arg\":" + jsonString(tricky) + "}")))))
                .state(Map.of("clé 🙂", json(jsonString(tricky)), "\"quoted key\"", json("1")))
                .metadata(Map.of("schlüssel 🙂", tricky, "ascii", "plain"))
                .build();
        provider().saveCheckpoint(agent, checkpoint);
        assertReadsBack(agent, checkpoint);
        assertThat(provider()
                        .getCheckpoints(agent)
                        .get(0)
                        .messageHistory()
                        .get(0)
                        .content())
                .isEqualTo(tricky);
    }

    @Test
    @DisplayName("a 10,000-message history reads back complete and in order")
    void longHistory() {
        String agent = agent("long-history");
        var history = Checkpoints.history(10_000);
        var checkpoint = Checkpoints.builder(agent, 0).messageHistory(history).build();
        provider().saveCheckpoint(agent, checkpoint);
        var read = provider().getCheckpoints(agent);
        assertThat(read).hasSize(1);
        assertThat(read.get(0).messageHistory()).hasSize(10_000);
        assertThat(read.get(0).messageHistory()).isEqualTo(history);
        assertThat(read.get(0)).isEqualTo(checkpoint);
        assertThat(provider().getLatestCheckpoint(agent)).contains(checkpoint);
    }

    @Test
    @DisplayName("a 1 MiB state value and a large state map read back intact")
    void largeState() {
        String agent = agent("large-state");
        var state = new LinkedHashMap<String, JsonNode>();
        state.put("blob", Checkpoints.largeText(1 << 20));
        var array = new StringBuilder("[");
        for (int i = 0; i < 5_000; i++) {
            array.append(i == 0 ? "" : ",")
                    .append("{\"i\":")
                    .append(i)
                    .append(",\"s\":\"v")
                    .append(i)
                    .append("\"}");
        }
        state.put("array", json(array.append(']').toString()));
        for (int i = 0; i < 1_000; i++) {
            state.put("key-" + i, json(Integer.toString(i)));
        }
        var checkpoint = Checkpoints.builder(agent, 0).state(state).build();
        provider().saveCheckpoint(agent, checkpoint);
        var read = provider().getCheckpoints(agent);
        assertThat(read).hasSize(1);
        assertThat(read.get(0).state().get("blob").textValue()).hasSize(1 << 20);
        assertThat(read.get(0).state()).hasSize(state.size());
        assertThat(read.get(0)).isEqualTo(checkpoint);
    }

    private static String jsonString(String text) {
        return new TextNode(text).toString();
    }
}
