package dev.agentpersistence.reliability;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.ToolCall;
import java.time.Instant;
import java.util.Random;

/**
 * Deterministic checkpoints: the one for {@code (agentId, version)} is always the same, so a verifier that knows only a
 * version can tell whether what is stored is exactly what was saved. Numbers are ints, as the JSON codec reads them
 * back. Every 7th version carries a 96 KiB state entry, to widen the window a crash can hit.
 */
final class Samples {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private Samples() {}

    static String idOf(long version) {
        return "cp-" + version;
    }

    static AgentCheckpoint of(String agentId, long version) {
        var random = new Random(agentId.hashCode() * 1_000_003L + version);
        ObjectNode args = JSON.objectNode().put("n", (int) version).put("text", "ünï-" + random.nextInt());
        var builder = AgentCheckpoint.builder()
                .checkpointId(idOf(version))
                .agentId(agentId)
                .version(version)
                .createdAt(Instant.ofEpochSecond(1_750_000_000L + version, (version * 7_919L) % 1_000_000_000L))
                .nodeId("node-" + version % 5)
                .lastInput(JSON.objectNode().put("input", (int) version))
                .lastInputType("test.Input")
                .message(Message.user("question " + version + " 😀").withId("q-" + version))
                .message(Message.toolCall(new ToolCall("call-" + version, "tool", args))
                        .withId("c-" + version))
                .message(Message.toolResult("call-" + version, "tool", "ok " + version)
                        .withId("r-" + version))
                .message(Message.assistant("answer " + random.nextLong()).withId("a-" + version))
                .state("counter", JSON.numberNode((int) version))
                .state("list", JSON.arrayNode().add(random.nextInt()).add("x").add(true))
                .metadata("v", Long.toString(version))
                .metadata("parity", version % 2 == 0 ? "even" : "odd");
        if (version % 7 == 3) {
            builder.state("bulk", JSON.textNode(text(random, 96 * 1024)));
        }
        if (version > 0) {
            builder.parentCheckpointId(idOf(version - 1));
        }
        return builder.build();
    }

    static String text(Random random, int length) {
        var sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append((char) ('a' + random.nextInt(26)));
        }
        return sb.toString();
    }
}
