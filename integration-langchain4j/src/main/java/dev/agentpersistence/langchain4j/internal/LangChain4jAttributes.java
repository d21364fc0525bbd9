package dev.agentpersistence.langchain4j.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.langchain4j.UnsupportedMessageException;
import dev.langchain4j.data.image.Image;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Message attributes ({@code Map<String, Object>}) as typed JSON, so each value reads back as the same type: every
 * value is a pair {@code [tag, value]} — {@code s} text, {@code b} boolean, {@code i} int, {@code l} long, {@code d}
 * double, {@code f} float, {@code bi}/{@code bd} big numbers (as text), {@code list}, {@code map}, {@code image} (a
 * LangChain4j {@link Image}, as in generated images), and {@code [null]}.
 */
public final class LangChain4jAttributes {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private LangChain4jAttributes() {}

    /**
     * The attributes as typed JSON.
     *
     * @param where the message, for the error
     * @throws UnsupportedMessageException naming the key and type of a value of another type
     */
    public static String encode(Map<String, Object> attributes, String where) {
        return LangChain4jJson.write(map(attributes, where));
    }

    /** The attributes {@link #encode} wrote, in their order. */
    public static Map<String, Object> decode(String json) {
        return map(LangChain4jJson.read(json));
    }

    private static ObjectNode map(Map<?, ?> values, String where) {
        var node = NODES.objectNode();
        for (var entry : values.entrySet()) {
            if (!(entry.getKey() instanceof String key)) {
                throw new UnsupportedMessageException(
                        where + ": attribute map key " + entry.getKey() + " is not a String");
            }
            node.set(key, value(entry.getValue(), where + ", attribute '" + key + "'"));
        }
        return node;
    }

    private static ArrayNode value(Object value, String where) {
        var pair = NODES.arrayNode();
        if (value == null) {
            return pair.add("null");
        }
        if (value instanceof String s) {
            return pair.add("s").add(s);
        }
        if (value instanceof Boolean b) {
            return pair.add("b").add(b);
        }
        if (value instanceof Integer i) {
            return pair.add("i").add(i);
        }
        if (value instanceof Long l) {
            return pair.add("l").add(l);
        }
        if (value instanceof Double d) {
            return pair.add("d").add(Double.toString(d));
        }
        if (value instanceof Float f) {
            return pair.add("f").add(Float.toString(f));
        }
        if (value instanceof BigInteger big) {
            return pair.add("bi").add(big.toString());
        }
        if (value instanceof BigDecimal big) {
            return pair.add("bd").add(big.toString());
        }
        if (value instanceof List<?> list) {
            var items = NODES.arrayNode();
            for (int i = 0; i < list.size(); i++) {
                items.add(value(list.get(i), where + "[" + i + "]"));
            }
            return pair.add("list").add(items);
        }
        if (value instanceof Map<?, ?> map) {
            return pair.add("map").add(map(map, where));
        }
        if (value instanceof Image image) {
            var fields = NODES.objectNode();
            fields.put("url", image.url() == null ? null : image.url().toString());
            fields.put("base64Data", image.base64Data());
            fields.put("mimeType", image.mimeType());
            fields.put("revisedPrompt", image.revisedPrompt());
            return pair.add("image").add(fields);
        }
        throw new UnsupportedMessageException(
                where + " holds a " + value.getClass().getName()
                        + "; supported attribute values are String, Boolean, Integer, Long, Double, Float, BigInteger,"
                        + " BigDecimal, List, Map with String keys, LangChain4j Image and null");
    }

    private static Map<String, Object> map(JsonNode node) {
        var values = new LinkedHashMap<String, Object>();
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            var field = fields.next();
            values.put(field.getKey(), value(field.getValue()));
        }
        return values;
    }

    private static Object value(JsonNode pair) {
        String tag = pair.get(0).asText();
        JsonNode value = pair.get(1);
        return switch (tag) {
            case "null" -> null;
            case "s" -> value.asText();
            case "b" -> value.asBoolean();
            case "i" -> value.asInt();
            case "l" -> value.asLong();
            case "d" -> Double.parseDouble(value.asText());
            case "f" -> Float.parseFloat(value.asText());
            case "bi" -> new BigInteger(value.asText());
            case "bd" -> new BigDecimal(value.asText());
            case "list" -> {
                var items = new ArrayList<>(value.size());
                value.forEach(item -> items.add(value(item)));
                yield items;
            }
            case "map" -> map(value);
            case "image" ->
                Image.builder()
                        .url(
                                value.get("url").isNull()
                                        ? null
                                        : URI.create(value.get("url").asText()))
                        .base64Data(text(value, "base64Data"))
                        .mimeType(text(value, "mimeType"))
                        .revisedPrompt(text(value, "revisedPrompt"))
                        .build();
            default -> throw new IllegalArgumentException("unknown attribute tag '" + tag + "'");
        };
    }

    private static String text(JsonNode fields, String name) {
        return fields.get(name).isNull() ? null : fields.get(name).asText();
    }
}
