package dev.agentpersistence.jackson3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.codec.CheckpointCodec;
import java.math.BigDecimal;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

class Jackson3NodesTest {
    private static final String JSON = "{\"z\":1,\"a\":[1,2147483648,123456789012345678901234567890,1.10,0.1,-17.25e3,"
            + "true,false,null,\"日本語 ✓ 🙂\",\"q\\\"uoted\"],\"nested\":{\"deep\":[{\"x\":[[]]},{}]},\"\":\"\"}";

    @Test
    void treesConvertExactlyBothWays() throws Exception {
        var jackson3 = JsonMapper.builder()
                .enable(tools.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .build()
                .readTree(JSON);
        var jackson2 = new ObjectMapper()
                .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .setNodeFactory(com.fasterxml.jackson.databind.node.JsonNodeFactory.withExactBigDecimals(true))
                .readTree(JSON);

        var stored = Jackson3Nodes.toStored(jackson3);
        assertThat(stored).isEqualTo(jackson2);
        assertThat(stored.toString()).isEqualTo(jackson2.toString());
        assertThat(stored.get("a").get(3).decimalValue()).isEqualTo(new BigDecimal("1.10"));
        assertThat(stored.get("a").get(2).bigIntegerValue().toString()).isEqualTo("123456789012345678901234567890");
        assertThat(stored.fieldNames()).toIterable().containsExactly("z", "a", "nested", "");
        assertThat(Jackson3Nodes.fromStored(stored)).isEqualTo(jackson3);
    }

    @Test
    void binaryStaysBinaryAndNullStaysNull() {
        ObjectNode tree = JsonNodeFactory.instance.objectNode();
        tree.put("bytes", new byte[] {0, 1, (byte) 0xff});
        var stored = Jackson3Nodes.toStored(tree);
        assertThat(stored.get("bytes").isBinary()).isTrue();
        assertThat(Jackson3Nodes.fromStored(stored)).isEqualTo(tree);
        assertThat(Jackson3Nodes.toStored(null)).isNull();
        assertThat(Jackson3Nodes.fromStored(null)).isNull();
    }

    @Test
    void aTreeBuiltWithJackson3IsStoredInTheSameBytesAsOneBuiltWithJackson2() throws Exception {
        var viaJackson3 =
                checkpoint(Jackson3Nodes.toStored(JsonMapper.builder().build().readTree(JSON)));
        var viaJackson2 = checkpoint(new ObjectMapper().readTree(JSON));

        byte[] three = CheckpointCodec.json().encode(viaJackson3);
        byte[] two = CheckpointCodec.json().encode(viaJackson2);
        assertThat(new String(three, java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo(new String(two, java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void tooDeepTreesAndPojoNodesAreRefused() {
        var root = JsonNodeFactory.instance.arrayNode();
        var current = root;
        for (int i = 0; i < Jackson3Nodes.MAX_DEPTH + 5; i++) {
            current = current.addArray();
        }
        assertThatThrownBy(() -> Jackson3Nodes.toStored(root))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("deeper than 1000");
        var pojo = JsonNodeFactory.instance.objectNode().putPOJO("p", new Object());
        assertThatThrownBy(() -> Jackson3Nodes.toStored(pojo))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("POJO");
    }

    private static AgentCheckpoint checkpoint(com.fasterxml.jackson.databind.JsonNode value) {
        return AgentCheckpoint.builder()
                .checkpointId("c")
                .agentId("a")
                .version(0)
                .createdAt(Instant.parse("2026-01-01T00:00:00Z"))
                .state("value", value)
                .lastInput(value)
                .build();
    }
}
