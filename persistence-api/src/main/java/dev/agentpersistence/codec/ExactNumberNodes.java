package dev.agentpersistence.codec;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ValueNode;
import java.math.BigDecimal;

/**
 * Number nodes that lose nothing on the way back: a fraction whose shortest {@code double} text has the same value
 * becomes a {@code double} node (as Jackson's default reader gives), any other — too many digits, or beyond the
 * {@code double} range — a {@link BigDecimal} node, where the default reader would round it or turn it into infinity.
 */
final class ExactNumberNodes extends JsonNodeFactory {
    private static final long serialVersionUID = 1L;

    ExactNumberNodes() {
        super(true);
    }

    @Override
    public ValueNode numberNode(BigDecimal value) {
        if (value == null) {
            return nullNode();
        }
        double asDouble = value.doubleValue();
        if (!Double.isInfinite(asDouble) && BigDecimal.valueOf(asDouble).compareTo(value) == 0) {
            return numberNode(asDouble);
        }
        return super.numberNode(value);
    }
}
