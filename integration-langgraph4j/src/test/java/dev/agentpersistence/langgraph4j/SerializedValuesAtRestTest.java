package dev.agentpersistence.langgraph4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.CheckpointTooLargeException;
import dev.agentpersistence.codec.DocumentLayers;
import dev.agentpersistence.codec.EncryptionKeys;
import dev.agentpersistence.file.FileStorage;
import dev.agentpersistence.file.FileStorageConfig;
import dev.agentpersistence.langgraph4j.StateSerializers.Order;
import dev.agentpersistence.langgraph4j.StateSerializers.Status;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.checkpoint.Checkpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Serialized state values go through the store's encryption and size limit like every other value. */
class SerializedValuesAtRestTest {
    private static final String PLAIN = "itemQx9SerializedPlain";
    private static final byte[] KEY = "agent-persistence lg4j test key!".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    private StorageShell open() {
        return FileStorage.builder(FileStorageConfig.custom().directory(dir).build())
                .settings(StorageSettings.custom()
                        .layers(DocumentLayers.custom()
                                .encryption(
                                        EncryptionKeys.custom().key("k1", KEY).build())
                                .build())
                        .maxCheckpointSize(64 * 1024)
                        .build())
                .build();
    }

    private static Checkpoint checkpoint(String id, Map<String, Object> state) {
        return Checkpoint.builder()
                .id(id)
                .nodeId("n")
                .nextNodeId("__END__")
                .state(state)
                .build();
    }

    @Test
    void aSerializedValueIsEncryptedAtRestAndReadsBackEqual() throws IOException {
        var order = new Order("o-3", BigDecimal.TEN, List.of(PLAIN), Status.OPEN);
        RunnableConfig config = RunnableConfig.builder().threadId("at-rest").build();
        String stored;
        try (var provider = open()) {
            var saver = AgentPersistenceSaver.of(provider);
            saver.put(config, checkpoint("c1", Map.of("order", order, "note", PLAIN)));
            stored = provider.getLatestCheckpoint(saver.agentId("at-rest"))
                    .orElseThrow()
                    .state()
                    .get("order")
                    .textValue();
        }
        // the Base64 text of the serialized record, as the saver handed it to the store, is nowhere at rest
        assertThat(stored).hasSizeGreaterThan(100);
        String dump = dump();
        assertThat(dump).doesNotContain(stored.substring(0, 40)).doesNotContain(PLAIN);
        try (var provider = open()) {
            assertThat(AgentPersistenceSaver.of(provider)
                            .get(config)
                            .orElseThrow()
                            .getState())
                    .containsEntry("order", order);
        }
    }

    @Test
    void aSerializedValueOverTheStoresLimitIsRefusedAndNothingIsWritten() {
        var big = new Order("o-4", BigDecimal.ONE, List.of("x".repeat(200 * 1024)), Status.OPEN);
        RunnableConfig config = RunnableConfig.builder().threadId("too-large").build();
        try (var provider = open()) {
            var saver = AgentPersistenceSaver.of(provider);
            assertThatThrownBy(() -> saver.put(config, checkpoint("c1", Map.of("order", big))))
                    .isInstanceOf(CheckpointTooLargeException.class);
            assertThat(saver.list(config)).isEmpty();
        }
    }

    private String dump() throws IOException {
        var text = new StringBuilder();
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.filter(Files::isRegularFile).forEach(files::add);
        }
        for (Path file : files) {
            text.append(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1));
        }
        return text.toString();
    }
}
