package dev.agentpersistence.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import dev.agentpersistence.ToolCall;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonCheckpointCodecTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final CheckpointCodec CODEC = CheckpointCodec.json();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    static AgentCheckpoint full() {
        ObjectNode args = JSON.objectNode().put("name", "Ålex 😀").put("age", 41);
        args.putArray("tags").add("a").add(JSON.nullNode()).add(2.5);
        return AgentCheckpoint.builder()
                .checkpointId("cp/../1 'quoted' %2F")
                .agentId("agent-日本語-😀")
                .version(42)
                .createdAt(Instant.parse("2026-01-02T03:04:05.123456789Z"))
                .nodeId("write-draft")
                .lastInput(JSON.objectNode().put("topic", "persistence \"quoted\" \\ back\nslash"))
                .lastInputType("com.example.Topic")
                .message(Message.system("You are helpful").withId("m-0"))
                .message(Message.user("こんにちは\u2028\t").withId("m-1"))
                .message(Message.toolCall(new ToolCall("call-1", "createUser", args))
                        .withId("m-2"))
                .message(Message.toolResult("call-1", "createUser", "ok").withId("m-3"))
                .message(Message.assistant("done").withMetadata("model", "m1").withId("m-4"))
                .state("counter", JSON.numberNode(7))
                .state("big", JSON.numberNode(9_007_199_254_740_993L))
                .state(
                        "nested",
                        JSON.objectNode().set("list", JSON.arrayNode().add(true).add("x")))
                .state("nothing", JSON.nullNode())
                .metadata("run", "r-1")
                .metadata("ünï", "cødé")
                .parentCheckpointId("cp-0")
                .build();
    }

    private static CheckpointLocation at(AgentCheckpoint cp) {
        return new CheckpointLocation(cp.agentId(), cp.checkpointId(), "test row 1");
    }

    @Test
    void everyFieldRoundTrips() {
        var cp = full();
        var back = CODEC.decode(CODEC.encode(cp), at(cp));

        assertThat(back).isEqualTo(cp);
        assertThat(back.createdAt().getNano()).isEqualTo(123_456_789);
        assertThat(back.state().get("big").longValue()).isEqualTo(9_007_199_254_740_993L);
        assertThat(back.messageHistory()
                        .get(2)
                        .toolCall()
                        .arguments()
                        .path("name")
                        .asText())
                .isEqualTo("Ålex 😀");
        assertThat(back.messageHistory().get(4).metadata()).containsEntry("model", "m1");
    }

    @Test
    void aMinimalCheckpointRoundTrips() {
        var cp = AgentCheckpoint.builder()
                .checkpointId("c")
                .agentId("a")
                .createdAt(Instant.EPOCH)
                .build();
        var back = CODEC.decode(CODEC.encode(cp), new CheckpointLocation("a", null, "somewhere"));
        assertThat(back).isEqualTo(cp);
        assertThat(back.nodeId()).isNull();
        assertThat(back.lastInput()).isNull();
        assertThat(back.lastInputType()).isNull();
        assertThat(back.parentCheckpointId()).isNull();
    }

    @Test
    void aJsonNullLastInputStaysDistinctFromNoLastInput() {
        var base = AgentCheckpoint.builder().checkpointId("c").agentId("a").createdAt(Instant.EPOCH);
        var absent = base.lastInput(null).build();
        var jsonNull = base.lastInput(JSON.nullNode()).build();

        var absentBack = CODEC.decode(CODEC.encode(absent), at(absent));
        var jsonNullBack = CODEC.decode(CODEC.encode(jsonNull), at(jsonNull));

        assertThat(absentBack.lastInput()).isNull();
        assertThat(jsonNullBack.lastInput()).isNotNull();
        assertThat(jsonNullBack.lastInput().isNull()).isTrue();
        assertThat(CODEC.encode(absent)).isNotEqualTo(CODEC.encode(jsonNull));
    }

    @Test
    void encodingIsDeterministic() {
        assertThat(CODEC.encode(full())).isEqualTo(CODEC.encode(full()));
        assertThat(JsonCheckpointCodec.instance()
                        .sameContent(full(), full().toBuilder().build()))
                .isTrue();
        assertThat(JsonCheckpointCodec.instance()
                        .sameContent(full(), full().toBuilder().version(1).build()))
                .isFalse();
    }

    @Test
    void theDocumentIsVersionedJson() throws Exception {
        JsonNode doc = MAPPER.readTree(CODEC.encode(full()));
        assertThat(doc.path("formatVersion").intValue()).isEqualTo(JsonCheckpointCodec.FORMAT_VERSION);
        assertThat(doc.path("createdAt").asText()).isEqualTo("2026-01-02T03:04:05.123456789Z");
    }

    @Test
    void aNewerFormatVersionIsRefusedWithAClearMessage() throws Exception {
        var cp = full();
        ObjectNode doc = (ObjectNode) MAPPER.readTree(CODEC.encode(cp));
        doc.put("formatVersion", JsonCheckpointCodec.FORMAT_VERSION + 1);

        assertThatThrownBy(() -> CODEC.decode(MAPPER.writeValueAsBytes(doc), at(cp)))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("format version " + (JsonCheckpointCodec.FORMAT_VERSION + 1))
                .hasMessageContaining("newer than this library reads")
                .hasMessageContaining("upgrade agent-persistence")
                .hasMessageContaining("test row 1")
                .hasMessageContaining(cp.agentId());
    }

    @Test
    void aTruncatedDocumentIsCorruptAndNamesWhere() {
        var cp = full();
        byte[] encoded = CODEC.encode(cp);
        byte[] truncated = Arrays.copyOf(encoded, encoded.length / 2);

        assertThatThrownBy(() -> CODEC.decode(truncated, at(cp)))
                .isInstanceOfSatisfying(CorruptCheckpointException.class, e -> {
                    assertThat(e.agentId()).isEqualTo(cp.agentId());
                    assertThat(e.checkpointId()).isEqualTo(cp.checkpointId());
                    assertThat(e.location()).isEqualTo("test row 1");
                    assertThat(e.getCause()).isNotNull();
                })
                .hasMessageContaining("not valid JSON");
    }

    @Test
    void garbageAndEmptyDocumentsAreCorrupt() {
        var where = new CheckpointLocation("a", "c", "/tmp/a/c.json");
        assertThatThrownBy(() -> CODEC.decode(new byte[] {(byte) 0xff, 0x00, 0x13, 0x37}, where))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("/tmp/a/c.json");
        assertThatThrownBy(() -> CODEC.decode(new byte[0], where))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> CODEC.decode(null, where))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> CODEC.decode(bytes("[1,2]"), where))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("expected a JSON object");
        assertThatThrownBy(() -> CODEC.decode(bytes("{\"checkpointId\":\"c\"}"), where))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("no formatVersion");
    }

    @Test
    void structurallyWrongDocumentsAreCorrupt() throws Exception {
        var cp = full();
        assertCorrupt(cp, doc -> doc.remove("messageHistory"), "missing field 'messageHistory'");
        assertCorrupt(cp, doc -> doc.put("createdAt", "yesterday"), "yesterday");
        assertCorrupt(cp, doc -> doc.put("version", "three"), "version is not an integer");
        assertCorrupt(cp, doc -> doc.put("version", 1.5), "version is not an integer");
        assertCorrupt(cp, doc -> ((ObjectNode) doc.path("messageHistory").get(0)).put("role", "WIZARD"), "WIZARD");
        assertCorrupt(cp, doc -> doc.put("state", "flat"), "'state' is not an object");
        assertCorrupt(cp, doc -> doc.putObject("metadata").put("n", 1), "metadata 'n' is not a string");
        assertCorrupt(cp, doc -> doc.put("nodeId", 5), "'nodeId' is not a string");
        assertCorrupt(cp, doc -> doc.put("agentId", ""), "agentId must not be empty");
    }

    @Test
    void aDocumentOfAnotherAgentOrCheckpointIsCorrupt() {
        var cp = full();
        byte[] encoded = CODEC.encode(cp);
        assertThatThrownBy(() -> CODEC.decode(encoded, new CheckpointLocation("other-agent", cp.checkpointId(), "k")))
                .isInstanceOfSatisfying(
                        CorruptCheckpointException.class,
                        e -> assertThat(e.agentId()).isEqualTo("other-agent"))
                .hasMessageContaining("belongs to agent '" + cp.agentId() + "'");
        assertThatThrownBy(() -> CODEC.decode(encoded, new CheckpointLocation(cp.agentId(), "other-cp", "k")))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("holds checkpoint '" + cp.checkpointId() + "'");
        assertThat(CODEC.decode(encoded, new CheckpointLocation(cp.agentId(), null, "k")))
                .isEqualTo(cp);
    }

    private static void assertCorrupt(
            AgentCheckpoint cp, java.util.function.Consumer<ObjectNode> damage, String problem) throws Exception {
        ObjectNode doc = (ObjectNode) MAPPER.readTree(CODEC.encode(cp));
        damage.accept(doc);
        assertThatThrownBy(() -> CODEC.decode(MAPPER.writeValueAsBytes(doc), at(cp)))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining(problem);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void stateKeysAndMetadataComeBackSorted() {
        var cp = AgentCheckpoint.builder()
                .checkpointId("c")
                .agentId("a")
                .createdAt(Instant.EPOCH)
                .state(Map.of("z", JSON.numberNode(1), "a", JSON.numberNode(2)))
                .metadata(Map.of("y", "1", "b", "2"))
                .build();
        var back = CODEC.decode(CODEC.encode(cp), at(cp));
        assertThat(back.state().keySet()).containsExactly("a", "z");
        assertThat(back.metadata().keySet()).containsExactly("b", "y");
    }
}
