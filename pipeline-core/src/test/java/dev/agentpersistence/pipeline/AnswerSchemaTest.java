package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON Schema subset answers are checked against, and its stored JSON form. */
class AnswerSchemaTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void typesChoicesAndBounds() {
        assertThat(AnswerSchema.text().validate(TextNode.valueOf("ok"))).isEmpty();
        assertThat(AnswerSchema.text().validate(TextNode.valueOf("")))
                .containsExactly("answer must have at least 1 character(s)");
        assertThat(AnswerSchema.text().validate(IntNode.valueOf(3)))
                .containsExactly("answer must be string but was number");
        assertThat(AnswerSchema.yesNo().validate(BooleanNode.TRUE)).isEmpty();
        assertThat(AnswerSchema.yesNo().validate(NullNode.getInstance()))
                .containsExactly("answer must be boolean but was null");
        assertThat(AnswerSchema.oneOf("a", "b").validate(TextNode.valueOf("c")))
                .containsExactly("answer must be one of [\"a\",\"b\"] but was \"c\"");
        assertThat(AnswerSchema.number(1, 5).validate(DoubleNode.valueOf(5.0))).isEmpty();
        assertThat(AnswerSchema.number(1, 5).validate(IntNode.valueOf(0)))
                .containsExactly("answer must be at least 1.0 but was 0");
        assertThat(AnswerSchema.any().validate(null)).isEmpty();
    }

    @Test
    void objectsCheckRequiredAndNestedProperties() throws Exception {
        var schema = AnswerSchema.object(Map.of("size", AnswerSchema.number(1, 9)));

        assertThat(schema.validate(JSON.readTree("{\"size\": 3, \"extra\": true}")))
                .isEmpty();
        assertThat(schema.validate(JSON.readTree("{}"))).containsExactly("answer.size is required");
        assertThat(schema.validate(JSON.readTree("{\"size\": \"big\"}")))
                .containsExactly("answer.size must be number but was string");
    }

    @Test
    void theJsonFormRoundTripsAndUnknownTypesAreRefused() throws Exception {
        var schema = AnswerSchema.fromJson(JSON.readTree("{\"type\":\"integer\",\"minimum\":0}"));

        assertThat(AnswerSchema.fromJson(schema.toJson())).isEqualTo(schema);
        assertThat(schema.validate(IntNode.valueOf(2))).isEmpty();
        assertThat(schema.validate(DoubleNode.valueOf(2.5))).containsExactly("answer must be integer but was number");
        assertThatThrownBy(() -> AnswerSchema.fromJson(JSON.readTree("[]")))
                .isInstanceOf(IllegalArgumentException.class);
        var unknown = AnswerSchema.fromJson(JSON.readTree("{\"type\":\"date\"}"));
        assertThatThrownBy(() -> unknown.validate(TextNode.valueOf("x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown answer schema type 'date'");
    }

    @Test
    void numberBoundsAreExactDecimalsAndNaNAndInfinitiesAreRefused() throws Exception {
        var schema = AnswerSchema.number(0, 10);
        var decimals = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

        assertThat(schema.validate(decimals.readTree("10.0000000000000000001")))
                .containsExactly("answer must be at most 10.0 but was 10.0000000000000000001");
        assertThat(schema.validate(DecimalNode.valueOf(new BigDecimal("-0.0000000000000000001"))))
                .containsExactly("answer must be at least 0.0 but was -1E-19");
        assertThat(schema.validate(IntNode.valueOf(10))).isEmpty();
        assertThat(schema.validate(DoubleNode.valueOf(10.0))).isEmpty();
        assertThat(schema.validate(decimals.readTree("10.0"))).isEmpty();
        assertThat(schema.validate(decimals.readTree("10"))).isEmpty();
        assertThat(schema.validate(BigIntegerNode.valueOf(new BigInteger("100000000000000000000"))))
                .containsExactly("answer must be at most 10.0 but was 100000000000000000000");
        for (double notANumber : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            assertThat(schema.validate(DoubleNode.valueOf(notANumber)))
                    .as("%s", notANumber)
                    .containsExactly("answer must be a finite number but was " + DoubleNode.valueOf(notANumber));
            assertThat(AnswerSchema.fromJson(JSON.readTree("{\"type\":\"number\"}"))
                            .validate(DoubleNode.valueOf(notANumber)))
                    .as("unbounded %s", notANumber)
                    .hasSize(1);
        }
        assertThat(AnswerSchema.number(0, 0.1).validate(decimals.readTree("0.1")))
                .as("a double bound is the decimal it prints as, not the binary value nearest to it")
                .isEmpty();
        assertThat(AnswerSchema.number(0, 0.1).validate(decimals.readTree("0.10000000000000001")))
                .hasSize(1);
        assertThatThrownBy(() -> AnswerSchema.number(Double.NaN, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AnswerSchema.number(2, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anAnswerNestedTooDeepIsRefusedWithoutRecursion() throws Exception {
        String deep = "[".repeat(1_500) + "]".repeat(1_500);
        JsonNode answer = new ObjectMapper()
                .getFactory()
                .setStreamReadConstraints(
                        StreamReadConstraints.builder().maxNestingDepth(2_000).build())
                .createParser(deep)
                .readValueAsTree();

        assertThat(AnswerSchema.any().validate(answer))
                .containsExactly("answer is nested more than " + AnswerSchema.MAX_DEPTH + " levels deep; at most "
                        + AnswerSchema.MAX_DEPTH + " are allowed");
        assertThat(AnswerSchema.any()
                        .validate(
                                JSON.readTree("[".repeat(AnswerSchema.MAX_DEPTH) + "]".repeat(AnswerSchema.MAX_DEPTH))))
                .isEmpty();
    }
}
