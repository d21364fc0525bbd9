package dev.agentpersistence.tck;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.Message;
import dev.agentpersistence.ToolCall;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds checkpoints for provider tests. JSON values are built by parsing JSON text, so they compare equal to what a
 * provider decodes from its stored document.
 */
public final class Checkpoints {
    /** The {@code createdAt} of version 0; later versions are one second apart (and one nanosecond more). */
    public static final Instant BASE_TIME = Instant.parse("2026-03-14T15:09:26.535897932Z");

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Checkpoints() {}

    /** Parses JSON text into a node. */
    public static JsonNode json(String text) {
        Objects.requireNonNull(text, "text");
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Not JSON: " + text, e);
        }
    }

    /**
     * The {@code createdAt} the fixtures give {@code version}: {@link #BASE_TIME} plus {@code version} seconds and
     * nanoseconds.
     */
    public static Instant createdAt(long version) {
        return BASE_TIME.plusSeconds(version).plusNanos(version);
    }

    /** The checkpoint id the fixtures give {@code version}. */
    public static String checkpointId(long version) {
        return "cp-" + version;
    }

    /**
     * A builder pre-filled with a small checkpoint: id {@code cp-<version>}, {@link #createdAt(long)}, node
     * {@code node}, one user message and one state entry.
     */
    public static AgentCheckpoint.Builder builder(String agentId, long version) {
        return AgentCheckpoint.builder()
                .checkpointId(checkpointId(version))
                .agentId(agentId)
                .version(version)
                .createdAt(createdAt(version))
                .nodeId("node")
                .message(Message.user("message of version " + version).withId("m-" + version))
                .state("version", json(Long.toString(version)));
    }

    /** A small checkpoint; see {@link #builder(String, long)}. */
    public static AgentCheckpoint simple(String agentId, long version) {
        return builder(agentId, version).build();
    }

    /** A checkpoint with only the required fields: no node, input, type, parent, messages, state or metadata. */
    public static AgentCheckpoint minimal(String agentId, long version) {
        return AgentCheckpoint.builder()
                .checkpointId(checkpointId(version))
                .agentId(agentId)
                .version(version)
                .createdAt(createdAt(version))
                .build();
    }

    /**
     * A checkpoint with every field set: JSON input and state of every JSON type, unicode text, a tool call with JSON
     * arguments and its result, metadata and a parent (from version 1 on).
     */
    public static AgentCheckpoint full(String agentId, long version) {
        var state = new LinkedHashMap<String, JsonNode>();
        state.put(
                "outline",
                json("{\"title\":\"Quarterly report\",\"sections\":[\"intro\",\"numbers\",\"outlook\"],"
                        + "\"done\":{\"intro\":true,\"numbers\":false}}"));
        state.put("count", json("42"));
        state.put("long", json("9007199254740993"));
        state.put("bigInteger", json("123456789012345678901234567890"));
        state.put("decimal", json("0.1"));
        state.put("negative", json("-17.25e3"));
        state.put("flag", json("false"));
        state.put("nothing", json("null"));
        state.put("text", json("\"日本語のテキスト — ✓ 🙂\""));
        state.put("emptyObject", json("{}"));
        state.put("emptyArray", json("[]"));
        state.put("dotted.key$with[chars]", json("[1,[2,[3,{\"deep\":[null,true,\"x\"]}]]]"));
        state.put("", json("\"the empty key\""));
        var builder = AgentCheckpoint.builder()
                .checkpointId("full-" + version)
                .agentId(agentId)
                .version(version)
                .createdAt(createdAt(version))
                .nodeId("write-section ✍")
                .lastInput(json("{\"section\":\"intro\",\"words\":250,\"ratio\":0.75,\"tags\":[\"a\",\"b\"],"
                        + "\"nested\":{\"ok\":true,\"none\":null},\"quote\":\"\\\"'\\\\\"}"))
                .lastInputType("com.example.SectionRequest<List<String>>")
                .messageHistory(conversation(version))
                .state(state)
                .metadata(Map.of("phase", "draft", "unicode", "ä✓🙂", "empty", "", "spaces", "  padded  "));
        if (version > 0) {
            builder.parentCheckpointId("full-" + (version - 1));
        }
        return builder.build();
    }

    /**
     * A short conversation with every role, a user message with content parts (text, an image as bytes, a file by URL),
     * a tool call with JSON arguments and its result. Message ids are {@code c<version>-<index>}.
     */
    public static List<Message> conversation(long version) {
        var call = new ToolCall(
                "call-" + version,
                "create_file",
                json("{\"path\":\"docs/intro.md\",\"content\":\"# Intro\\n\",\"overwrite\":false,\"mode\":420}"));
        String request = "Write the introduction (version " + version + ") — ünïcödé, 中文, עברית, 🙂";
        var messages = List.of(
                Message.system("You write reports."),
                Message.user(request)
                        .withParts(List.of(
                                ContentPart.text(request),
                                ContentPart.bytes(ContentPart.MediaKind.IMAGE, image(version), "image/png"),
                                ContentPart.url(
                                                ContentPart.MediaKind.FILE,
                                                "https://example.com/brief-" + version + ".pdf",
                                                "application/pdf")
                                        .withName("brief ✓.pdf"))),
                Message.assistant("I will create the file."),
                Message.toolCall(call),
                Message.toolResult("call-" + version, "create_file", "{\"ok\":true}"),
                Message.assistant("Done.").withMetadata("model", "m-1").withMetadata("tokens", "17"));
        var withIds = new ArrayList<Message>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            withIds.add(messages.get(i).withId("c" + version + "-" + i));
        }
        return withIds;
    }

    /** A small binary "image" (every byte value, then the version) for content parts. */
    static byte[] image(long version) {
        byte[] bytes = new byte[260];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i + version);
        }
        return bytes;
    }

    /**
     * {@code size} messages cycling through every role, ids {@code h-<index>}; every tenth is a tool call with JSON
     * arguments.
     */
    public static List<Message> history(int size) {
        var messages = new ArrayList<Message>(size);
        for (int i = 0; i < size; i++) {
            switch (i % 5) {
                case 0 -> messages.add(Message.user("question " + i + " — ✓"));
                case 1 -> messages.add(Message.assistant("answer " + i));
                case 2 ->
                    messages.add(
                            i % 10 == 2
                                    ? Message.toolCall(new ToolCall(
                                            "call-" + i, "lookup", json("{\"q\":\"item " + i + "\",\"n\":" + i + "}")))
                                    : Message.system("note " + i));
                case 3 -> messages.add(Message.toolResult("call-" + (i - 1), "lookup", "result " + i));
                default -> messages.add(Message.assistant("step " + i).withMetadata("index", Integer.toString(i)));
            }
            messages.set(i, messages.get(i).withId("h-" + i));
        }
        return messages;
    }

    /** A JSON string node of exactly {@code length} characters (ASCII and non-ASCII mixed). */
    public static JsonNode largeText(int length) {
        var text = new StringBuilder(length);
        String pattern = "lorem ipsum ✓ 日本 \"quoted\" \\ ";
        while (text.length() < length) {
            text.append(pattern, 0, Math.min(pattern.length(), length - text.length()));
        }
        return MAPPER.getNodeFactory().textNode(text.toString());
    }
}
