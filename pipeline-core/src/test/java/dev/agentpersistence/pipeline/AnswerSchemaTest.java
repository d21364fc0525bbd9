package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
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
}
