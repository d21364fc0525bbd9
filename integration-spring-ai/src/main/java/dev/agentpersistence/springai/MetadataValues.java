package dev.agentpersistence.springai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Spring AI message metadata ({@code Map<String, Object>}) as one JSON text that reads back with the same Java types.
 * Keys are written in sorted order, so equal metadata always gives the same text (the conversation store matches
 * messages by content).
 *
 * <p>{@code String}, {@code Boolean}, {@code Integer}, finite {@code Double} and maps with {@code String} keys are
 * plain JSON. Every JSON array is a tagged value whose first element says what it holds: {@code ["[", e1, e2]} a
 * {@code List}; {@code ["L", 5]} a {@code Long}; {@code ["S", 5]} a {@code Short}; {@code ["B", 5]} a {@code Byte};
 * {@code ["F", 1.5]} a {@code Float}; {@code ["d", "NaN"]} a non-finite {@code Double}; {@code ["I", "123"]} a
 * {@code BigInteger}; {@code ["D", "1.50"]} a {@code BigDecimal}; {@code ["J", json]} any other object, stored as
 * Jackson writes it and read back as plain JSON values (maps, lists, strings, numbers), since its class is not
 * recorded.
 */
final class MetadataValues {
    /** How deep lists and maps may nest in a metadata value. */
    static final int MAX_DEPTH = 256;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private MetadataValues() {}

    /**
     * The metadata as JSON text.
     *
     * @throws IllegalArgumentException naming the key whose value Jackson cannot write, or whose list or map contains
     *     itself, or which nests lists and maps deeper than {@value #MAX_DEPTH} levels
     */
    static String write(Map<String, Object> metadata) {
        if (metadata.containsKey(null)) {
            throw new IllegalArgumentException("metadata has a null key");
        }
        ObjectNode object = NODES.objectNode();
        var containers = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<Object, Boolean>());
        new TreeMap<>(metadata).forEach((key, value) -> object.set(key, encode(key, value, containers)));
        try {
            return JSON.writeValueAsString(object);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("metadata cannot be written as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * The metadata {@link #write} wrote, as a mutable map.
     *
     * @throws IllegalArgumentException when {@code json} is not such a text
     */
    static Map<String, Object> read(String json) {
        JsonNode node;
        try {
            node = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("metadata is not JSON: " + e.getOriginalMessage(), e);
        }
        if (!(node instanceof ObjectNode object)) {
            throw new IllegalArgumentException("metadata is not a JSON object");
        }
        return decodeObject(object);
    }

    /** {@code containers}: the lists and maps {@code value} is nested in, to refuse one that contains itself. */
    private static JsonNode encode(String path, Object value, java.util.Set<Object> containers) {
        if ((value instanceof List<?> || value instanceof Map<?, ?>) && !containers.add(value)) {
            throw new IllegalArgumentException("metadata value '" + path + "' contains itself; it cannot be stored");
        }
        if (containers.size() > MAX_DEPTH) {
            throw new IllegalArgumentException(
                    "metadata value '" + path + "' nests lists and maps deeper than " + MAX_DEPTH + " levels");
        }
        try {
            return encodeValue(path, value, containers);
        } finally {
            if (value instanceof List<?> || value instanceof Map<?, ?>) {
                containers.remove(value);
            }
        }
    }

    private static JsonNode encodeValue(String path, Object value, java.util.Set<Object> containers) {
        if (value == null) {
            return NODES.nullNode();
        }
        if (value instanceof String s) {
            return NODES.textNode(s);
        }
        if (value instanceof Boolean b) {
            return NODES.booleanNode(b);
        }
        if (value instanceof Integer i) {
            return NODES.numberNode(i);
        }
        if (value instanceof Double d) {
            return Double.isFinite(d) ? NODES.numberNode(d) : tagged("d", NODES.textNode(d.toString()));
        }
        if (value instanceof Long l) {
            return tagged("L", NODES.numberNode(l));
        }
        if (value instanceof Short s) {
            return tagged("S", NODES.numberNode(s));
        }
        if (value instanceof Byte b) {
            return tagged("B", NODES.numberNode(b));
        }
        if (value instanceof Float f) {
            return Float.isFinite(f) ? tagged("F", NODES.numberNode(f.doubleValue())) : other(path, value);
        }
        if (value instanceof BigInteger i) {
            return tagged("I", NODES.textNode(i.toString()));
        }
        if (value instanceof BigDecimal d) {
            return tagged("D", NODES.textNode(d.toString()));
        }
        if (value instanceof List<?> list) {
            ArrayNode array = NODES.arrayNode().add("[");
            for (int i = 0; i < list.size(); i++) {
                array.add(encode(path + "[" + i + "]", list.get(i), containers));
            }
            return array;
        }
        // a null key is no String instance (and immutable maps refuse containsKey(null))
        if (value instanceof Map<?, ?> map && map.keySet().stream().allMatch(String.class::isInstance)) {
            ObjectNode object = NODES.objectNode();
            new TreeMap<>(map).forEach((k, v) -> object.set((String) k, encode(path + "." + k, v, containers)));
            return object;
        }
        return other(path, value);
    }

    private static JsonNode other(String path, Object value) {
        try {
            return tagged("J", JSON.valueToTree(value));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "metadata value '" + path + "' (" + value.getClass().getName() + ") cannot be written as JSON: "
                            + e.getMessage(),
                    e);
        }
    }

    private static ArrayNode tagged(String tag, JsonNode payload) {
        return NODES.arrayNode().add(tag).add(payload);
    }

    private static Object decode(JsonNode node) {
        if (node.isNull()) {
            return null;
        }
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isInt()) {
            return node.intValue();
        }
        if (node.isDouble()) {
            return node.doubleValue();
        }
        if (node instanceof ObjectNode object) {
            return decodeObject(object);
        }
        if (node instanceof ArrayNode array && array.size() >= 1 && array.get(0).isTextual()) {
            return decodeTagged(array);
        }
        throw new IllegalArgumentException("metadata holds an unknown value: " + node);
    }

    private static Object decodeTagged(ArrayNode array) {
        String tag = array.get(0).textValue();
        if (tag.equals("[")) {
            List<Object> list = new ArrayList<>(array.size() - 1);
            for (int i = 1; i < array.size(); i++) {
                list.add(decode(array.get(i)));
            }
            return list;
        }
        if (array.size() != 2) {
            throw new IllegalArgumentException("metadata holds a malformed tagged value: " + array);
        }
        JsonNode payload = array.get(1);
        return switch (tag) {
            case "L" -> payload.longValue();
            case "S" -> payload.shortValue();
            case "B" -> (byte) payload.intValue();
            case "F" -> payload.floatValue();
            case "d" -> Double.valueOf(payload.textValue());
            case "I" -> new BigInteger(payload.textValue());
            case "D" -> new BigDecimal(payload.textValue());
            case "J" -> JSON.convertValue(payload, Object.class);
            default -> throw new IllegalArgumentException("metadata holds an unknown tag '" + tag + "'");
        };
    }

    private static Map<String, Object> decodeObject(ObjectNode object) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : object.properties()) {
            map.put(field.getKey(), decode(field.getValue()));
        }
        return map;
    }
}
