package dev.agentpersistence.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Identifiers;
import dev.agentpersistence.Message;
import dev.agentpersistence.ToolCall;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Generators of hostile input: valid ids built from path, quoting, glob and escape characters, unicode of every plane
 * and maximal lengths; any text for node ids, contents and metadata; random JSON trees; times from 1900 to 2200 to the
 * nanosecond; versions up to {@code Long.MAX_VALUE}.
 */
final class HostileArbitraries {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final List<String> NASTY = List.of(
            "/",
            "\\",
            "..",
            ".",
            "%",
            "%2F",
            "'",
            "\"",
            ";",
            "--",
            "*",
            "?",
            "{",
            "}",
            "[",
            "]",
            ":",
            " ",
            "\u00a0",
            "\u200b",
            "\u2028",
            "é",
            "e\u0301",
            "日本語",
            "😀",
            "𝄞",
            "\ufeff",
            "CON",
            "nul",
            "~",
            "#",
            "&",
            "=",
            "+",
            "|",
            "<",
            ">",
            "$",
            "`",
            "DROP TABLE x",
            "\\u0000");

    private HostileArbitraries() {}

    /** Any text: code points from every plane (no lone surrogates), control characters included. */
    static Arbitrary<String> text(int maxLength) {
        Arbitrary<String> codePoints = Arbitraries.integers()
                .between(0, 0x10FFFF)
                .filter(cp -> cp < 0xD800 || cp > 0xDFFF)
                .list()
                .ofMaxSize(maxLength)
                .map(cps -> {
                    var sb = new StringBuilder();
                    cps.forEach(sb::appendCodePoint);
                    return sb.toString();
                });
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, codePoints),
                net.jqwik.api.Tuple.of(
                        2, Arbitraries.of(NASTY).list().ofMaxSize(8).map(l -> String.join("", l))),
                net.jqwik.api.Tuple.of(2, Arbitraries.strings().ascii().ofMaxLength(maxLength)));
    }

    /** A valid id: nasty pieces and unicode, 1 to 256 UTF-16 characters, no control characters. */
    static Arbitrary<String> ids() {
        Arbitrary<String> piece = Arbitraries.oneOf(
                Arbitraries.of(NASTY),
                Arbitraries.integers()
                        .between(0x20, 0x10FFFF)
                        .filter(cp -> (cp < 0xD800 || cp > 0xDFFF) && !Character.isISOControl(cp))
                        .map(Character::toString),
                Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(40));
        return Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(
                                6, piece.list().ofMinSize(1).ofMaxSize(12).map(l -> String.join("", l))),
                        net.jqwik.api.Tuple.of(
                                1, piece.list().ofMinSize(60).ofMaxSize(200).map(l -> String.join("", l))))
                .map(HostileArbitraries::fit)
                .filter(Identifiers::isValid);
    }

    private static String fit(String id) {
        if (id.isEmpty()) {
            return "x";
        }
        if (id.length() <= Identifiers.MAX_LENGTH) {
            return id;
        }
        int end = Identifiers.MAX_LENGTH;
        if (Character.isHighSurrogate(id.charAt(end - 1))) {
            end--;
        }
        return id.substring(0, end);
    }

    /** A JSON tree of depth at most {@code depth}; numbers as the JSON codec reads them back. */
    static Arbitrary<JsonNode> json(int depth) {
        Arbitrary<JsonNode> leaf = Arbitraries.oneOf(
                text(30).map(JSON::textNode),
                Arbitraries.integers().map(JSON::numberNode),
                Arbitraries.longs()
                        .filter(l -> l < Integer.MIN_VALUE || l > Integer.MAX_VALUE)
                        .map(JSON::numberNode),
                Arbitraries.doubles()
                        .filter(Double::isFinite)
                        .filter(d -> d != Math.rint(d) || Math.abs(d) > 1e15)
                        .map(JSON::numberNode),
                Arbitraries.of(true, false).map(JSON::booleanNode),
                Arbitraries.just(JSON.nullNode()));
        if (depth <= 0) {
            return leaf;
        }
        Arbitrary<JsonNode> array = Arbitraries.lazy(() -> json(depth - 1))
                .list()
                .ofMaxSize(4)
                .map(items -> {
                    var node = JSON.arrayNode();
                    items.forEach(node::add);
                    return node;
                });
        Arbitrary<JsonNode> object = Arbitraries.maps(text(12), Arbitraries.lazy(() -> json(depth - 1)))
                .ofMaxSize(4)
                .map(fields -> {
                    var node = JSON.objectNode();
                    fields.forEach(node::set);
                    return node;
                });
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, leaf), net.jqwik.api.Tuple.of(1, array), net.jqwik.api.Tuple.of(1, object));
    }

    static Arbitrary<Message> messages() {
        Arbitrary<Message> plain = Combinators.combine(
                        Arbitraries.of(Message.Role.SYSTEM, Message.Role.USER, Message.Role.ASSISTANT),
                        text(200),
                        Arbitraries.maps(text(10), text(20)).ofMaxSize(3))
                .as((role, content, metadata) -> new Message(role, content, null, metadata));
        Arbitrary<Message> call = Combinators.combine(ids(), ids(), json(3))
                .as((id, tool, args) -> Message.toolCall(new ToolCall(id, tool, args)));
        Arbitrary<Message> result = Combinators.combine(ids(), ids(), text(200)).as(Message::toolResult);
        return Arbitraries.oneOf(plain, call, result);
    }

    static Arbitrary<Instant> instants() {
        return Combinators.combine(
                        Arbitraries.longs().between(-2_208_988_800L, 7_258_118_400L),
                        Arbitraries.integers().between(0, 999_999_999))
                .as(Instant::ofEpochSecond);
    }

    /** A checkpoint of {@code agentId}; every field hostile. */
    static Arbitrary<AgentCheckpoint> checkpoints(String agentId) {
        Arbitrary<Map<String, JsonNode>> state =
                Arbitraries.maps(text(20), json(5)).ofMaxSize(6);
        return Combinators.combine(
                        ids(),
                        Arbitraries.longs().between(0, Long.MAX_VALUE),
                        instants(),
                        text(40).injectNull(0.2),
                        json(3).injectNull(0.3),
                        messages().list().ofMaxSize(12),
                        state,
                        Arbitraries.maps(text(15), text(30)).ofMaxSize(4))
                .as((id, version, createdAt, nodeId, input, history, st, metadata) -> AgentCheckpoint.builder()
                        .checkpointId(id)
                        .agentId(agentId)
                        .version(version)
                        .createdAt(createdAt)
                        .nodeId(nodeId)
                        .lastInput(input)
                        .lastInputType(input == null ? null : "hostile.Input")
                        .messageHistory(history)
                        .state(st)
                        .metadata(metadata)
                        .build());
    }
}
