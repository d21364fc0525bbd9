package dev.agentpersistence.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointLimitException;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import dev.agentpersistence.ToolCall;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** What a save accepts reads back; what a read would refuse is refused at save, with a typed error. */
class JsonLimitsTest {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final CheckpointCodec CODEC = CheckpointCodec.json();
    private static final CheckpointLocation WHERE = new CheckpointLocation("agent", "cp", "test");

    private static AgentCheckpoint.Builder base() {
        return AgentCheckpoint.builder()
                .checkpointId("cp")
                .agentId("agent")
                .version(1)
                .createdAt(Instant.parse("2026-11-24T00:00:00Z"));
    }

    /** A JSON value {@code depth} containers deep (1: an empty array), built without recursion. */
    private static JsonNode nested(int depth, Random random) {
        JsonNode node = NODES.arrayNode();
        for (int i = 1; i < depth; i++) {
            if (random.nextBoolean()) {
                ArrayNode array = NODES.arrayNode();
                array.add(node);
                node = array;
            } else {
                ObjectNode object = NODES.objectNode();
                object.set("k" + i, node);
                node = object;
            }
        }
        return node;
    }

    private static void roundTrips(AgentCheckpoint checkpoint) {
        assertThat(CODEC.decode(CODEC.encode(checkpoint), WHERE)).isEqualTo(checkpoint);
    }

    private static void refusedAtSave(AgentCheckpoint checkpoint, String limit) {
        assertThatThrownBy(() -> CODEC.encode(checkpoint)).isInstanceOfSatisfying(CheckpointLimitException.class, e -> {
            assertThat(e.limitName()).isEqualTo(limit);
            assertThat(e.agentId()).isEqualTo("agent");
            assertThat(e.checkpointId()).isEqualTo("cp");
        });
    }

    @Test
    void nestingUpToTheReadersDepthRoundTripsAndDeeperIsRefusedAtSave() {
        var random = new Random(1);
        for (int round = 0; round < 20; round++) {
            // state values sit two levels deep in the document, tool arguments four, lastInput one
            roundTrips(base().state("s", nested(JsonLimits.MAX_NESTING_DEPTH - 2, random))
                    .build());
            refusedAtSave(
                    base().state("s", nested(JsonLimits.MAX_NESTING_DEPTH - 1, random))
                            .build(),
                    "nesting depth");
            roundTrips(base().lastInput(nested(JsonLimits.MAX_NESTING_DEPTH - 1, random))
                    .build());
            refusedAtSave(
                    base().lastInput(nested(JsonLimits.MAX_NESTING_DEPTH, random))
                            .build(),
                    "nesting depth");
            var call = new ToolCall("c", "t", nested(JsonLimits.MAX_NESTING_DEPTH - 4, random));
            roundTrips(base().message(Message.toolCall(call)).build());
            var deeper = new ToolCall("c", "t", nested(JsonLimits.MAX_NESTING_DEPTH - 3, random));
            refusedAtSave(base().message(Message.toolCall(deeper)).build(), "nesting depth");
        }
    }

    @Test
    void aStateNested100000LevelsDeepIsATypedErrorNotAStackOverflow() {
        refusedAtSave(base().state("deep", nested(100_000, new Random(2))).build(), "nesting depth");
    }

    @Test
    void storedBytesNested100000LevelsDeepAreCorruptNotAStackOverflow() {
        String document = "{\"formatVersion\":1,\"state\":{\"s\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}}";
        assertThatThrownBy(() -> CODEC.decode(document.getBytes(StandardCharsets.UTF_8), WHERE))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("test");
    }

    @Test
    void numbersUpToTheReadersLengthRoundTripAndLongerAreRefusedAtSave() {
        var random = new Random(3);
        for (int length : new int[] {999, 1000}) {
            var digits = new StringBuilder("1");
            while (digits.length() < length) {
                digits.append(random.nextInt(10));
            }
            roundTrips(base().state("n", NODES.numberNode(new BigInteger(digits.toString())))
                    .build());
            roundTrips(base().state("d", NODES.numberNode(new BigDecimal(digits.substring(0, length - 2) + ".5")))
                    .build());
        }
        refusedAtSave(
                base().state("n", NODES.numberNode(new BigInteger("9".repeat(1001))))
                        .build(),
                "number length");
    }

    @Test
    void keysAndStringsUpToTheReadersLengthRoundTripAndLongerAreRefusedAtSave() {
        String key = "k".repeat(JsonLimits.MAX_NAME_LENGTH);
        roundTrips(base().state(key, NODES.textNode("v")).metadata(key, "v").build());
        refusedAtSave(base().state(key + "k", NODES.textNode("v")).build(), "key length");
        refusedAtSave(base().metadata(key + "k", "v").build(), "key length");
        ObjectNode object = NODES.objectNode();
        object.put(key + "k", 1);
        refusedAtSave(base().lastInput(object).build(), "key length");

        String text = "x".repeat(JsonLimits.MAX_STRING_LENGTH);
        roundTrips(base().message(Message.user(text)).build());
        refusedAtSave(base().message(Message.user(text + "x")).build(), "string length");
        refusedAtSave(base().state("s", NODES.textNode(text + "x")).build(), "string length");
    }
}
