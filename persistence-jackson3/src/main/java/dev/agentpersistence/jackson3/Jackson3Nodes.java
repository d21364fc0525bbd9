package dev.agentpersistence.jackson3;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Objects;

/**
 * Exact conversions between Jackson 3 trees ({@code tools.jackson.databind.JsonNode}, what a Jackson 3 application
 * holds) and the Jackson 2 trees the data model stores ({@code com.fasterxml.jackson.databind.JsonNode}: checkpoint
 * state, inputs, tool arguments). Numbers keep their kind and value ({@code 1.10} stays {@code 1.10}, a big integer
 * stays exact), binary stays binary, property order is kept; so the stored bytes are the same whichever Jackson built
 * the tree. Stateless; the inputs are never changed.
 */
public final class Jackson3Nodes {
    /** Deepest tree converted; deeper ones are refused rather than overflowing the stack. */
    public static final int MAX_DEPTH = 1_000;

    private static final com.fasterxml.jackson.databind.node.JsonNodeFactory STORED =
            com.fasterxml.jackson.databind.node.JsonNodeFactory.withExactBigDecimals(true);
    private static final tools.jackson.databind.node.JsonNodeFactory APPLICATION =
            tools.jackson.databind.node.JsonNodeFactory.instance;

    private Jackson3Nodes() {}

    /**
     * The stored (Jackson 2) form of a Jackson 3 tree; {@code null} for {@code null}.
     *
     * @throws IllegalArgumentException when the tree is deeper than {@value #MAX_DEPTH} or holds a POJO node (map the
     *     value with {@link Jackson3Mapping#toStored(Object)} instead)
     */
    public static com.fasterxml.jackson.databind.JsonNode toStored(tools.jackson.databind.JsonNode node) {
        return node == null ? null : toStored(node, 0);
    }

    /**
     * The Jackson 3 form of a stored (Jackson 2) tree; {@code null} for {@code null}.
     *
     * @throws IllegalArgumentException when the tree is deeper than {@value #MAX_DEPTH} or holds a POJO node
     */
    public static tools.jackson.databind.JsonNode fromStored(com.fasterxml.jackson.databind.JsonNode node) {
        return node == null ? null : fromStored(node, 0);
    }

    private static com.fasterxml.jackson.databind.JsonNode toStored(tools.jackson.databind.JsonNode node, int depth) {
        requireDepth(depth);
        switch (node.getNodeType()) {
            case OBJECT -> {
                ObjectNode object = STORED.objectNode();
                for (Map.Entry<String, tools.jackson.databind.JsonNode> field : node.properties()) {
                    object.set(field.getKey(), toStored(field.getValue(), depth + 1));
                }
                return object;
            }
            case ARRAY -> {
                ArrayNode array = STORED.arrayNode(node.size());
                for (tools.jackson.databind.JsonNode element : node.values()) {
                    array.add(toStored(element, depth + 1));
                }
                return array;
            }
            case STRING -> {
                return STORED.textNode(node.stringValue());
            }
            case BOOLEAN -> {
                return STORED.booleanNode(node.booleanValue());
            }
            case NULL, MISSING -> {
                return STORED.nullNode();
            }
            case BINARY -> {
                return STORED.binaryNode(node.binaryValue());
            }
            case NUMBER -> {
                return switch (node.numberType()) {
                    case INT -> STORED.numberNode(node.intValue());
                    case LONG -> STORED.numberNode(node.longValue());
                    case BIG_INTEGER -> STORED.numberNode(node.bigIntegerValue());
                    case FLOAT -> STORED.numberNode(node.floatValue());
                    case DOUBLE -> STORED.numberNode(node.doubleValue());
                    case BIG_DECIMAL -> STORED.numberNode(node.decimalValue());
                };
            }
            default ->
                throw new IllegalArgumentException("cannot store a Jackson 3 " + node.getNodeType()
                        + " node as JSON; map the value with Jackson3Mapping.toStored instead");
        }
    }

    private static tools.jackson.databind.JsonNode fromStored(com.fasterxml.jackson.databind.JsonNode node, int depth) {
        requireDepth(depth);
        switch (node.getNodeType()) {
            case OBJECT -> {
                tools.jackson.databind.node.ObjectNode object = APPLICATION.objectNode();
                for (Map.Entry<String, com.fasterxml.jackson.databind.JsonNode> field : node.properties()) {
                    object.set(field.getKey(), fromStored(field.getValue(), depth + 1));
                }
                return object;
            }
            case ARRAY -> {
                tools.jackson.databind.node.ArrayNode array = APPLICATION.arrayNode(node.size());
                for (com.fasterxml.jackson.databind.JsonNode element : node) {
                    array.add(fromStored(element, depth + 1));
                }
                return array;
            }
            case STRING -> {
                return APPLICATION.stringNode(node.textValue());
            }
            case BOOLEAN -> {
                return APPLICATION.booleanNode(node.booleanValue());
            }
            case NULL, MISSING -> {
                return APPLICATION.nullNode();
            }
            case BINARY -> {
                return APPLICATION.binaryNode(binary(node));
            }
            case NUMBER -> {
                return switch (node.numberType()) {
                    case INT -> APPLICATION.numberNode(node.intValue());
                    case LONG -> APPLICATION.numberNode(node.longValue());
                    case BIG_INTEGER -> APPLICATION.numberNode(node.bigIntegerValue());
                    case FLOAT -> APPLICATION.numberNode(node.floatValue());
                    case DOUBLE -> APPLICATION.numberNode(node.doubleValue());
                    case BIG_DECIMAL -> APPLICATION.numberNode(node.decimalValue());
                };
            }
            default ->
                throw new IllegalArgumentException(
                        "cannot convert a stored " + node.getNodeType() + " node; stored trees hold JSON values only");
        }
    }

    private static byte[] binary(com.fasterxml.jackson.databind.JsonNode node) {
        try {
            return Objects.requireNonNull(node.binaryValue(), "binary value");
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("unreadable binary node: " + e.getMessage(), e);
        }
    }

    private static void requireDepth(int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("the tree is nested deeper than " + MAX_DEPTH + " levels");
        }
    }
}
