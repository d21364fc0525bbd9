package dev.agentpersistence.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What an answer to an {@link InputRequest} must look like: a small subset of JSON Schema ({@code type}
 * string/number/integer/boolean/object/array, {@code enum}, {@code minimum}, {@code maximum}, {@code minLength},
 * {@code properties}, {@code required}). It is stored with the waiting run as JSON, so another process can show it and
 * check an answer before resuming. Immutable; build with the factories or {@link #fromJson}.
 *
 * <p>Numbers are compared as exact decimals ({@link BigDecimal}), so {@code 10.0000000000000000001} (read as a decimal
 * node) is above a maximum of 10 while {@code 10} and {@code 10.0} are not; {@code NaN} and the infinities are not
 * numbers to a schema. An answer nested deeper than {@link #MAX_DEPTH} levels is refused before anything else is
 * checked.
 */
public final class AnswerSchema {
    /** Deepest nesting of arrays and objects an answer may have (a scalar answer has depth 0). */
    public static final int MAX_DEPTH = 64;

    private final ObjectNode json;

    private AnswerSchema(ObjectNode json) {
        this.json = json.deepCopy();
    }

    /** Any JSON value. */
    public static AnswerSchema any() {
        return new AnswerSchema(JsonNodeFactory.instance.objectNode());
    }

    /** A non-empty string. */
    public static AnswerSchema text() {
        return new AnswerSchema(
                JsonNodeFactory.instance.objectNode().put("type", "string").put("minLength", 1));
    }

    /** {@code true} or {@code false}. */
    public static AnswerSchema yesNo() {
        return new AnswerSchema(JsonNodeFactory.instance.objectNode().put("type", "boolean"));
    }

    /** One of the given strings. */
    public static AnswerSchema oneOf(String... choices) {
        var node = JsonNodeFactory.instance.objectNode().put("type", "string");
        var values = node.putArray("enum");
        for (String choice : choices) {
            values.add(Objects.requireNonNull(choice, "choice"));
        }
        return new AnswerSchema(node);
    }

    /**
     * A number between {@code minimum} and {@code maximum}, both inclusive; a bound is compared as the decimal
     * {@link BigDecimal#valueOf(double)} gives ({@code 0.1} is 0.1, not the binary double nearest to it).
     *
     * @throws IllegalArgumentException when a bound is NaN or infinite, or {@code minimum > maximum}
     */
    public static AnswerSchema number(double minimum, double maximum) {
        if (!Double.isFinite(minimum) || !Double.isFinite(maximum) || minimum > maximum) {
            throw new IllegalArgumentException(
                    "number bounds must be finite with minimum <= maximum, but were " + minimum + " and " + maximum);
        }
        return new AnswerSchema(JsonNodeFactory.instance
                .objectNode()
                .put("type", "number")
                .put("minimum", minimum)
                .put("maximum", maximum));
    }

    /** An object with the given properties, all of them required. */
    public static AnswerSchema object(Map<String, AnswerSchema> properties) {
        var node = JsonNodeFactory.instance.objectNode().put("type", "object");
        var props = node.putObject("properties");
        var required = node.putArray("required");
        properties.forEach((name, schema) -> {
            props.set(name, schema.json.deepCopy());
            required.add(name);
        });
        return new AnswerSchema(node);
    }

    /** A schema from its JSON form (as {@link #toJson()} writes it). */
    public static AnswerSchema fromJson(JsonNode json) {
        Objects.requireNonNull(json, "json");
        if (!json.isObject()) {
            throw new IllegalArgumentException("an answer schema is a JSON object, not " + json.getNodeType());
        }
        return new AnswerSchema((ObjectNode) json);
    }

    /** The schema as JSON (a copy). */
    public ObjectNode toJson() {
        return json.deepCopy();
    }

    /** What is wrong with {@code answer}; empty when it conforms. */
    public List<String> validate(JsonNode answer) {
        JsonNode value = answer == null ? JsonNodeFactory.instance.nullNode() : answer;
        int depth = depthBeyond(value, MAX_DEPTH);
        if (depth > MAX_DEPTH) {
            return List.of(
                    "answer is nested more than " + MAX_DEPTH + " levels deep; at most " + MAX_DEPTH + " are allowed");
        }
        var problems = new ArrayList<String>();
        check(json, value, "answer", problems);
        return problems;
    }

    /** The nesting depth of {@code value}, counted without recursion and only up to {@code limit + 1}. */
    private static int depthBeyond(JsonNode value, int limit) {
        var pending = new ArrayDeque<Map.Entry<JsonNode, Integer>>();
        pending.push(Map.entry(value, 0));
        int deepest = 0;
        while (!pending.isEmpty()) {
            var next = pending.pop();
            int depth = next.getValue();
            deepest = Math.max(deepest, depth);
            if (deepest > limit) {
                return deepest;
            }
            if (next.getKey().isContainerNode()) {
                for (JsonNode child : next.getKey()) {
                    if (child.isContainerNode()) {
                        pending.push(Map.entry(child, depth + 1));
                    }
                }
            }
        }
        return deepest;
    }

    /** The exact decimal of a number node; empty for NaN and the infinities. */
    private static Optional<BigDecimal> decimal(JsonNode number) {
        if ((number.isDouble() || number.isFloat()) && !Double.isFinite(number.doubleValue())) {
            return Optional.empty();
        }
        return Optional.of(
                number.isDouble() || number.isFloat()
                        ? BigDecimal.valueOf(number.doubleValue())
                        : number.decimalValue());
    }

    private static void check(JsonNode schema, JsonNode value, String path, List<String> problems) {
        String type = schema.path("type").asText("");
        if (!type.isEmpty() && !hasType(value, type)) {
            problems.add(path + " must be " + type + " but was "
                    + value.getNodeType().name().toLowerCase());
            return;
        }
        if (schema.has("enum")) {
            boolean listed = false;
            for (JsonNode allowed : schema.get("enum")) {
                listed |= allowed.equals(value);
            }
            if (!listed) {
                problems.add(path + " must be one of " + schema.get("enum") + " but was " + value);
            }
        }
        if (schema.has("minLength")
                && value.isTextual()
                && value.textValue().length() < schema.get("minLength").asInt()) {
            problems.add(path + " must have at least " + schema.get("minLength").asInt() + " character(s)");
        }
        boolean bounded = schema.has("minimum") || schema.has("maximum");
        if (value.isNumber() && decimal(value).isEmpty() && (bounded || type.equals("number"))) {
            problems.add(path + " must be a finite number but was " + value);
        } else if (value.isNumber() && bounded) {
            checkBounds(schema, value, path, problems);
        }
        if (value.isObject()) {
            for (JsonNode name : schema.path("required")) {
                if (!value.has(name.asText())) {
                    problems.add(path + "." + name.asText() + " is required");
                }
            }
            Iterator<Map.Entry<String, JsonNode>> properties =
                    schema.path("properties").fields();
            while (properties.hasNext()) {
                var property = properties.next();
                if (value.has(property.getKey())) {
                    check(property.getValue(), value.get(property.getKey()), path + "." + property.getKey(), problems);
                }
            }
        }
    }

    private static void checkBounds(JsonNode schema, JsonNode value, String path, List<String> problems) {
        BigDecimal number = decimal(value).orElseThrow();
        if (schema.has("minimum") && number.compareTo(bound(schema, "minimum")) < 0) {
            problems.add(path + " must be at least " + schema.get("minimum") + " but was " + value);
        }
        if (schema.has("maximum") && number.compareTo(bound(schema, "maximum")) > 0) {
            problems.add(path + " must be at most " + schema.get("maximum") + " but was " + value);
        }
    }

    private static BigDecimal bound(JsonNode schema, String name) {
        JsonNode bound = schema.get(name);
        if (!bound.isNumber()) {
            throw new IllegalArgumentException("answer schema " + name + " must be a number but was " + bound);
        }
        return decimal(bound)
                .orElseThrow(() ->
                        new IllegalArgumentException("answer schema " + name + " must be finite but was " + bound));
    }

    private static boolean hasType(JsonNode value, String type) {
        return switch (type) {
            case "string" -> value.isTextual();
            case "number" -> value.isNumber();
            case "integer" -> value.isIntegralNumber();
            case "boolean" -> value.isBoolean();
            case "object" -> value.isObject();
            case "array" -> value.isArray();
            case "null" -> value.isNull();
            default -> throw new IllegalArgumentException("unknown answer schema type '" + type + "'");
        };
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AnswerSchema schema && schema.json.equals(json);
    }

    @Override
    public int hashCode() {
        return json.hashCode();
    }

    @Override
    public String toString() {
        return "AnswerSchema" + json;
    }
}
