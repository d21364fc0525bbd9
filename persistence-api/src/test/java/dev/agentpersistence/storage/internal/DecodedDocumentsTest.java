package dev.agentpersistence.storage.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.backend.StoredDocument;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DecodedDocumentsTest {
    private static final AgentCheckpoint CHECKPOINT = AgentCheckpoint.builder()
            .checkpointId("c1")
            .agentId("a")
            .version(1)
            .createdAt(Instant.parse("2026-01-01T00:00:00Z"))
            .nodeId("n")
            .message(Message.user("hi"))
            .build();

    private static StoredDocument stored(String checkpointId, long version, byte[] document) {
        return new StoredDocument("a", checkpointId, version, document, "test");
    }

    @Test
    void overNewArraysEqualBytesUnderTheSameVersionAndIdAreRecognised() {
        var remembered = DecodedDocuments.byContent(16);
        remembered.put("a", stored("c1", 1, new byte[] {1, 2, 3}), CHECKPOINT);

        assertThat(remembered.get("a", stored("c1", 1, new byte[] {1, 2, 3}))).containsSame(CHECKPOINT);
        assertThat(remembered.get("a", stored("c1", 1, new byte[] {1, 2, 4})))
                .as("other bytes")
                .isEmpty();
        assertThat(remembered.get("a", stored("c1", 2, new byte[] {1, 2, 3})))
                .as("another version")
                .isEmpty();
        assertThat(remembered.get("a", stored("c2", 1, new byte[] {1, 2, 3})))
                .as("another id")
                .isEmpty();
        assertThat(remembered.get("b", stored("c1", 1, new byte[] {1, 2, 3})))
                .as("another agent")
                .isEmpty();
    }

    @Test
    void changingTheReadArrayLaterChangesNothingRemembered() {
        var remembered = DecodedDocuments.byContent(16);
        byte[] read = {1, 2, 3};
        remembered.put("a", stored("c1", 1, read), CHECKPOINT);
        read[0] = 9;

        assertThat(remembered.get("a", stored("c1", 1, read))).isEmpty();
        assertThat(remembered.get("a", stored("c1", 1, new byte[] {1, 2, 3}))).containsSame(CHECKPOINT);
    }

    @Test
    void largeDocumentsAreNotKeptOverNewArrays() {
        var remembered = DecodedDocuments.byContent(16);
        byte[] large = new byte[DecodedDocuments.COMPARED_DOCUMENT_BYTES + 1];
        remembered.put("a", stored("c1", 1, large), CHECKPOINT);

        assertThat(remembered.get("a", stored("c1", 1, large.clone()))).isEmpty();
    }

    @Test
    void overSharedArraysOnlyTheSameArrayIsRecognised() {
        var remembered = DecodedDocuments.byIdentity(16);
        byte[] array = {1, 2, 3};
        remembered.put("a", stored("c1", 1, array), CHECKPOINT);

        assertThat(remembered.get("a", stored("c1", 1, array))).containsSame(CHECKPOINT);
        assertThat(remembered.get("a", stored("c1", 1, array.clone()))).isEmpty();
    }

    @Test
    void aCheckpointWithMutableStateIsHandedOutAsCopies() {
        ObjectNode state = JsonNodeFactory.instance.objectNode().put("k", "v");
        var mutable = CHECKPOINT.toBuilder().state("s", state).build();
        var remembered = DecodedDocuments.byContent(16);
        remembered.put("a", stored("c1", 1, new byte[] {1}), mutable);

        AgentCheckpoint first =
                remembered.get("a", stored("c1", 1, new byte[] {1})).orElseThrow();
        ((ObjectNode) first.state().get("s")).put("k", "changed by a caller");
        AgentCheckpoint second =
                remembered.get("a", stored("c1", 1, new byte[] {1})).orElseThrow();

        assertThat(second).isNotSameAs(first);
        assertThat(second.state().get("s").get("k").asText()).isEqualTo("v");
    }

    @Test
    void onlyTheMostRecentlyUsedAgentsAreKept() {
        var remembered = DecodedDocuments.byContent(1_000_000);
        for (int i = 0; i <= DecodedDocuments.COMPARED_AGENTS; i++) {
            remembered.put("agent-" + i, stored("c1", 1, new byte[] {1}), CHECKPOINT);
        }
        assertThat(remembered.get("agent-0", stored("c1", 1, new byte[] {1}))).isEmpty();
        assertThat(remembered.get("agent-" + DecodedDocuments.COMPARED_AGENTS, stored("c1", 1, new byte[] {1})))
                .containsSame(CHECKPOINT);
    }

    @Test
    void overNewArraysItKeepsRecognisingByContent() {
        var remembered = DecodedDocuments.learning(1024);
        remembered.put("a", stored("c1", 1, new byte[] {1, 2, 3}), CHECKPOINT);
        assertThat(remembered.get("a", stored("c1", 1, new byte[] {1, 2, 3}))).containsSame(CHECKPOINT);
        assertThat(remembered.get("a", stored("c1", 1, new byte[] {1, 2, 3}))).containsSame(CHECKPOINT);

        assertThat(remembered.recognisesByIdentity()).isFalse();
        byte[] large = new byte[DecodedDocuments.COMPARED_DOCUMENT_BYTES + 1];
        remembered.put("a", stored("c2", 2, large), CHECKPOINT);
        assertThat(remembered.get("a", stored("c2", 2, large.clone())))
                .as("large documents over new arrays")
                .isEmpty();
    }

    @Test
    void aBackendHandingBackTheSameArrayIsRecognisedByIdentityFromThenOn() {
        var remembered = DecodedDocuments.learning(1024);
        byte[] large = new byte[DecodedDocuments.COMPARED_DOCUMENT_BYTES + 1];
        remembered.put("a", stored("c1", 1, large), CHECKPOINT);

        assertThat(remembered.get("a", stored("c1", 1, large)))
                .as("not kept while the backend was not known to share")
                .isEmpty();
        assertThat(remembered.recognisesByIdentity()).isTrue();
        remembered.put("a", stored("c1", 1, large), CHECKPOINT);
        assertThat(remembered.get("a", stored("c1", 1, large))).containsSame(CHECKPOINT);
        assertThat(remembered.get("a", stored("c1", 1, large.clone())))
                .as("an equal copy is another array")
                .isEmpty();
        for (int i = 0; i <= DecodedDocuments.COMPARED_AGENTS; i++) {
            remembered.put("agent-" + i, stored("c1", 1, large), CHECKPOINT);
        }
        assertThat(remembered.get("agent-0", stored("c1", 1, large)))
                .as("more agents than over new arrays")
                .containsSame(CHECKPOINT);
    }
}
