package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.codec.DocumentLayers;
import dev.agentpersistence.codec.EncryptionKeys;
import dev.agentpersistence.history.IncrementalHistoryConfig;
import dev.agentpersistence.storage.StorageSettings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * With encryption on, nothing a checkpoint holds is readable at rest: node ids and metadata become keyed hashes the
 * filters still match (across key rotation, and for records saved before encryption was turned on), and a dump of the
 * storage shows none of the saved values, only ids, versions, times and sizes. Needs the kit's
 * {@code createProvider(StorageSettings)} hook, and its {@code dumpStorage()} hook for the dump.
 */
abstract class EncryptionAtRestContract extends Contract {
    private static final byte[] KEY_1 = "agent-persistence at-rest key 1!".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEY_2 = "agent-persistence at-rest key 2!".getBytes(StandardCharsets.US_ASCII);
    /** Saved values the dump must not show; each is distinct enough never to occur by chance. */
    private static final String NODE = "nodeQx7Plain";

    private static final String META_KEY = "metaKeyQx7Plain";
    private static final String META_VALUE = "metaValueQx7Plain";
    private static final String MESSAGE = "messageQx7Plain";
    private static final String STATE = "stateQx7Plain";
    private static final String INPUT = "inputQx7Plain";

    EncryptionAtRestContract(KitSession session) {
        super(session);
    }

    private static StorageSettings encrypted(EncryptionKeys keys) {
        return StorageSettings.custom()
                .layers(DocumentLayers.custom().checksum(true).encryption(keys).build())
                .incrementalHistory(true)
                .history(IncrementalHistoryConfig.custom()
                        .blockSize(4)
                        .tierSizes(List.of(16))
                        .build())
                .build();
    }

    private static EncryptionKeys firstKey() {
        return EncryptionKeys.custom().key("rest-k1", KEY_1).build();
    }

    private static EncryptionKeys rotated() {
        return EncryptionKeys.custom()
                .key("rest-k1", KEY_1)
                .key("rest-k2", KEY_2)
                .currentKey("rest-k2")
                .build();
    }

    private static AgentCheckpoint secret(String agentId, long version, String node) {
        var history = new ArrayList<Message>();
        for (int i = 0; i <= version * 5; i++) {
            history.add(Message.user(MESSAGE + " " + i)); // long enough for history segments
        }
        return Checkpoints.builder(agentId, version)
                .nodeId(node)
                .messageHistory(history)
                .state("notes", Checkpoints.json("\"" + STATE + "\""))
                .lastInput(Checkpoints.json("\"" + INPUT + "\""))
                .metadata(Map.of(META_KEY, META_VALUE + version % 2))
                .build();
    }

    @Test
    @DisplayName("node and metadata filters match encrypted records, before and after a key rotation")
    void filtersMatchAcrossKeyRotation() {
        String agentId = agent("rest-filters");
        PersistenceStorageProvider<CheckpointFilter> before = newProvider(encrypted(firstKey()));
        before.saveCheckpoint(agentId, secret(agentId, 0, NODE));
        before.saveCheckpoint(agentId, secret(agentId, 1, "other"));
        PersistenceStorageProvider<CheckpointFilter> after = newProvider(encrypted(rotated()));
        after.saveCheckpoint(agentId, secret(agentId, 2, NODE));
        after.saveCheckpoint(agentId, secret(agentId, 3, "other"));

        for (var reader : List.of(after, newProvider(encrypted(rotated())))) {
            assertThat(versions(reader.getCheckpoints(
                            agentId, CheckpointFilter.builder().nodeId(NODE).build())))
                    .containsExactly(0L, 2L);
            assertThat(versions(reader.getCheckpoints(
                            agentId,
                            CheckpointFilter.builder()
                                    .metadata(META_KEY, META_VALUE + 1)
                                    .build())))
                    .containsExactly(1L, 3L);
            assertThat(versions(reader.getCheckpoints(
                            agentId,
                            CheckpointFilter.builder().nodeId(NODE).limit(1).build())))
                    .containsExactly(2L);
            assertThat(reader.getLatestCheckpoint(
                            agentId, CheckpointFilter.builder().nodeId("other").build()))
                    .map(AgentCheckpoint::version)
                    .contains(3L);
            assertThat(reader.getLatestCheckpoint(
                            agentId,
                            CheckpointFilter.builder()
                                    .metadata(META_KEY, META_VALUE + 0)
                                    .maxVersion(1L)
                                    .build()))
                    .map(AgentCheckpoint::version)
                    .contains(0L);
            assertThat(reader.getCheckpoints(
                            agentId, CheckpointFilter.builder().nodeId("absent").build()))
                    .isEmpty();
        }
    }

    @Test
    @DisplayName("records saved before encryption was turned on are still found by filters")
    void filtersFindRecordsSavedBeforeEncryption() {
        String agentId = agent("rest-upgrade");
        var plain = StorageSettings.custom().layers(DocumentLayers.none()).build();
        newProvider(plain).saveCheckpoint(agentId, secret(agentId, 0, "drafting"));
        var encrypting = newProvider(encrypted(firstKey()));
        encrypting.saveCheckpoint(agentId, secret(agentId, 1, "drafting"));

        assertThat(versions(encrypting.getCheckpoints(
                        agentId, CheckpointFilter.builder().nodeId("drafting").build())))
                .containsExactly(0L, 1L);
        assertThat(versions(encrypting.getCheckpoints(
                        agentId,
                        CheckpointFilter.builder()
                                .metadata(META_KEY, META_VALUE + 0)
                                .build())))
                .containsExactly(0L);
    }

    @Test
    @DisplayName("a dump of the storage shows no node id, metadata, message, state or input that was saved")
    void aDumpShowsNoSavedValue() {
        String agentId = agent("rest-dump");
        var provider = newProvider(encrypted(firstKey()));
        for (long version = 0; version < 6; version++) {
            provider.saveCheckpoint(agentId, secret(agentId, version, NODE));
        }
        var rotatedProvider = newProvider(encrypted(rotated()));
        rotatedProvider.saveCheckpoint(agentId, secret(agentId, 6, NODE));
        assertThat(rotatedProvider.getCheckpoints(
                        agentId, CheckpointFilter.builder().nodeId(NODE).build()))
                .hasSize(7);

        String dump = new String(dump(), StandardCharsets.ISO_8859_1); // byte for byte, whatever the encoding
        for (String saved : List.of(NODE, META_KEY, META_VALUE, MESSAGE, STATE, INPUT)) {
            assertThat(dump)
                    .as("the storage of %s holds '%s' readable although it was saved encrypted", providerName(), saved)
                    .doesNotContain(saved);
        }
        assertThat(dump.length())
                .as("the dump covers the seven saved checkpoints")
                .isGreaterThan(7 * 64);
    }
}
