package dev.agentpersistence.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What an answer to an {@link InputRequest} must look like: a small subset of JSON Schema ({@code type}
 * string/number/integer/boolean/object/array, {@code enum}, {@code minimum}, {@code maximum}, {@code minLength},
 * {@code properties}, {@code required}). It is stored with the waiting run as JSON, so another process can show it and
 * check an answer before resuming. Immutable; build with the factories or {@link #fromJson}.
 */
public final class AnswerSchema {
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

    /** A number between {@code minimum} and {@code maximum}, both inclusive. */
    public static AnswerSchema number(double minimum, double maximum) {
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
        var problems = new ArrayList<String>();
        check(json, answer == null ? JsonNodeFactory.instance.nullNode() : answer, "answer", problems);
        return problems;
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
        if (schema.has("minimum")
                && value.isNumber()
                && value.asDouble() < schema.get("minimum").asDouble()) {
            problems.add(path + " must be at least " + schema.get("minimum") + " but was " + value);
        }
        if (schema.has("maximum")
                && value.isNumber()
                && value.asDouble() > schema.get("maximum").asDouble()) {
            problems.add(path + " must be at most " + schema.get("maximum") + " but was " + value);
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
