package dev.agentpersistence.langgraph4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Converts a LangGraph4j state map to the JSON values of {@link dev.agentpersistence.AgentCheckpoint#state()} and back.
 * No {@link java.io.Serializable} and no class names: only JSON-mappable values are accepted.
 *
 * <table>
 *   <caption>Supported values and what comes back</caption>
 *   <tr><th>put</th><th>read back</th></tr>
 *   <tr><td>{@code null}</td><td>{@code null}</td></tr>
 *   <tr><td>{@code String}, {@code Boolean}</td><td>the same</td></tr>
 *   <tr><td>{@code Byte}, {@code Short}, {@code Integer}, {@code Long}, {@code BigInteger}</td>
 *       <td>{@code Integer} when it fits, else {@code Long}, else {@code BigInteger}</td></tr>
 *   <tr><td>finite {@code Float}, {@code Double}</td><td>{@code Double}</td></tr>
 *   <tr><td>{@code BigDecimal}</td><td>{@code BigDecimal} (or {@code Double} when the store keeps floats)</td></tr>
 *   <tr><td>{@code Collection} of supported values</td><td>mutable {@code ArrayList}</td></tr>
 *   <tr><td>{@code Map} with {@code String} keys and supported values</td><td>mutable {@code LinkedHashMap}</td></tr>
 * </table>
 *
 * Anything else (records, POJOs, enums, arrays, NaN, infinities, maps with other keys) throws
 * {@link UnsupportedStateValueException} naming the key and the path inside the value; {@link AgentPersistenceSaver}
 * then stores that key's value through the graph's {@link org.bsc.langgraph4j.serializer.StateSerializer} instead.
 */
public final class StateValues {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private StateValues() {}

    /** The state as JSON, one node per key. */
    public static Map<String, JsonNode> toJson(Map<String, Object> state) {
        var json = new TreeMap<String, JsonNode>();
        for (var entry : state.entrySet()) {
            json.put(entry.getKey(), toJson(entry.getKey(), entry.getValue()));
        }
        return json;
    }

    /** One state value as JSON. */
    static JsonNode toJson(String key, Object value) {
        return toNode(key, key, value);
    }

    /** The state read back; see the class documentation for the types. */
    public static Map<String, Object> fromJson(Map<String, JsonNode> json) {
        var state = new LinkedHashMap<String, Object>();
        for (var entry : json.entrySet()) {
            state.put(entry.getKey(), fromJson(entry.getValue()));
        }
        return state;
    }

    /** One state value read back. */
    static Object fromJson(JsonNode node) {
        return toValue(node);
    }

    private static JsonNode toNode(String key, String path, Object value) {
        if (value == null) {
            return NODES.nullNode();
        }
        if (value instanceof String text) {
            return NODES.textNode(text);
        }
        if (value instanceof Boolean flag) {
            return NODES.booleanNode(flag);
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return NODES.numberNode(((Number) value).intValue());
        }
        if (value instanceof Long number) {
            return NODES.numberNode(number);
        }
        if (value instanceof BigInteger number) {
            return NODES.numberNode(number);
        }
        if (value instanceof Double || value instanceof Float) {
            double number = ((Number) value).doubleValue();
            if (!Double.isFinite(number)) {
                throw new UnsupportedStateValueException(
                        key, path, value.getClass().getName(), "JSON has no " + number);
            }
            return NODES.numberNode(number);
        }
        if (value instanceof BigDecimal number) {
            return NODES.numberNode(number);
        }
        if (value instanceof Collection<?> items) {
            ArrayNode array = NODES.arrayNode(items.size());
            int index = 0;
            for (Object item : items) {
                array.add(toNode(key, path + "[" + index++ + "]", item));
            }
            return array;
        }
        if (value instanceof Map<?, ?> map) {
            ObjectNode object = NODES.objectNode();
            for (var entry : map.entrySet()) {
                if (!(entry.getKey() instanceof String name)) {
                    throw new UnsupportedStateValueException(
                            key,
                            path,
                            value.getClass().getName(),
                            "a map key is "
                                    + (entry.getKey() == null
                                            ? "null"
                                            : "a " + entry.getKey().getClass().getName())
                                    + ", JSON object keys are Strings");
                }
                object.set(name, toNode(key, path + "." + name, entry.getValue()));
            }
            return object;
        }
        throw new UnsupportedStateValueException(key, path, value.getClass().getName(), "not a JSON-mappable value");
    }

    private static Object toValue(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isIntegralNumber()) {
            BigInteger number = node.bigIntegerValue();
            if (number.bitLength() < 32) {
                return number.intValue();
            }
            if (number.bitLength() < 64) {
                return number.longValue();
            }
            return number;
        }
        if (node.isBigDecimal()) {
            return node.decimalValue();
        }
        if (node.isNumber()) {
            return node.doubleValue();
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>(node.size());
            for (JsonNode item : node) {
                list.add(toValue(item));
            }
            return list;
        }
        if (node.isObject()) {
            var map = new LinkedHashMap<String, Object>();
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                map.put(field.getKey(), toValue(field.getValue()));
            }
            return map;
        }
        throw new IllegalStateException("Unexpected JSON node in a stored state: " + node.getNodeType());
    }
}
