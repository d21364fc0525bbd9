package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.EncryptionKeyException;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.codec.CompressionAlgorithm;
import dev.agentpersistence.codec.DocumentLayers;
import dev.agentpersistence.codec.EncryptionKeys;
import dev.agentpersistence.codec.JsonCheckpointCodec;
import dev.agentpersistence.history.IncrementalHistoryConfig;
import dev.agentpersistence.storage.StorageSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The stored form describes itself: checkpoints written with each configuration (plain JSON, checksummed, compressed,
 * encrypted, incremental history in the message log and in tiered segments, media parts stored by reference (blobs;
 * also blobs under the plain names a writer without encryption gives them, read by a reader with encryption), all of
 * them at once, and format 1 as releases before message ids wrote it) are read with every configuration, and come back
 * complete and equal (format 1: equal apart from message ids, which every reader derives alike and which content parts
 * format 1 cannot hold); a reader without the key of an encrypted document gets an {@link EncryptionKeyException}
 * naming agent and checkpoint, never a partial checkpoint. The kit's
 * {@link StorageProviderCompatibilityKit#jsonWriters() JSON writers} write the same checkpoints with each configuration
 * too, their JSON values built through another library: their documents are byte for byte those of Jackson 2, and every
 * configuration reads them back equal. Needs the kit's {@code createProvider(StorageSettings)} hook; aborted with the
 * reason without it.
 */
abstract class ReadMatrixContract extends Contract {
    /** A fixed test key: never use it for real data. */
    private static final byte[] KEY =
            "agent-persistence read matrix ke".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private static final int HISTORY = 70;

    private final Supplier<List<JsonWriter>> jsonWriters;

    ReadMatrixContract(KitSession session, Supplier<List<JsonWriter>> jsonWriters) {
        super(session);
        this.jsonWriters = jsonWriters;
    }

    /** Who wrote an agent's checkpoints: a configuration, with Jackson 2's values or another library's. */
    private record Writer(Configuration configuration, Optional<JsonWriter> json) {
        String name() {
            return configuration.name() + json.map(w -> " by " + w.name()).orElse("");
        }

        List<AgentCheckpoint> checkpoints(String agentId) {
            var checkpoints = written(agentId, configuration.legacy());
            return json.map(w -> checkpoints.stream().map(w::rebuild).toList()).orElse(checkpoints);
        }
    }

    private List<JsonWriter> jsonWriters() {
        return List.copyOf(Objects.requireNonNull(jsonWriters.get(), "jsonWriters()"));
    }

    /** One configuration of the matrix: a name and the settings it writes (and reads) with. */
    private record Configuration(String name, StorageSettings settings, boolean encrypts) {
        boolean legacy() {
            return settings.formatVersion() == 1;
        }
    }

    private static List<Configuration> configurations() {
        var smallBlocks = IncrementalHistoryConfig.custom()
                .blockSize(4)
                .tierSizes(List.of(32, 8))
                .build();
        var tieredBlocks =
                IncrementalHistoryConfig.from(smallBlocks).layout("tiers").build();
        var keys = EncryptionKeys.custom().key("matrix-k1", KEY).build();
        var plain = StorageSettings.custom()
                .layers(DocumentLayers.none())
                .incrementalHistory(false)
                .build();
        return List.of(
                new Configuration("plain JSON", plain, false),
                new Configuration(
                        "checksummed",
                        StorageSettings.from(plain)
                                .layers(DocumentLayers.custom().checksum(true).build())
                                .build(),
                        false),
                new Configuration(
                        "compressed (LZ4)",
                        StorageSettings.from(plain)
                                .layers(DocumentLayers.custom()
                                        .compression(true)
                                        .compressionAlgorithm(CompressionAlgorithm.LZ4)
                                        .compressionMinSize(0)
                                        .build())
                                .build(),
                        false),
                new Configuration(
                        "compressed (deflate)",
                        StorageSettings.from(plain)
                                .layers(DocumentLayers.custom()
                                        .compression(true)
                                        .compressionAlgorithm(CompressionAlgorithm.DEFLATE)
                                        .compressionMinSize(0)
                                        .build())
                                .build(),
                        false),
                new Configuration(
                        "encrypted",
                        StorageSettings.from(plain)
                                .layers(DocumentLayers.custom().encryption(keys).build())
                                .build(),
                        true),
                new Configuration("defaults", StorageSettings.ofDefaults(), false),
                new Configuration(
                        "incremental history",
                        StorageSettings.from(plain)
                                .incrementalHistory(true)
                                .history(smallBlocks)
                                .build(),
                        false),
                new Configuration(
                        "incremental history in tiered segments",
                        StorageSettings.from(plain)
                                .incrementalHistory(true)
                                .history(tieredBlocks)
                                .build(),
                        false),
                new Configuration(
                        "format 1", StorageSettings.from(plain).formatVersion(1).build(), false),
                new Configuration(
                        "format 1, every layer and incremental history",
                        StorageSettings.custom()
                                .formatVersion(1)
                                .layers(DocumentLayers.custom()
                                        .checksum(true)
                                        .compression(true)
                                        .compressionMinSize(0)
                                        .encryption(keys)
                                        .build())
                                .incrementalHistory(true)
                                .history(smallBlocks)
                                .build(),
                        true),
                new Configuration(
                        "every layer and incremental history",
                        StorageSettings.custom()
                                .layers(DocumentLayers.custom()
                                        .checksum(true)
                                        .compression(true)
                                        .compressionMinSize(0)
                                        .encryption(keys)
                                        .build())
                                .incrementalHistory(true)
                                .history(smallBlocks)
                                .build(),
                        true),
                new Configuration(
                        "media parts by reference",
                        StorageSettings.from(plain).blobThreshold(1).build(),
                        false),
                new Configuration(
                        "media parts by reference, every layer and incremental history",
                        StorageSettings.custom()
                                .layers(DocumentLayers.custom()
                                        .checksum(true)
                                        .compression(true)
                                        .compressionMinSize(0)
                                        .encryption(keys)
                                        .build())
                                .incrementalHistory(true)
                                .history(smallBlocks)
                                .blobThreshold(1)
                                .build(),
                        true));
    }

    /**
     * Three checkpoints per writer: a long history (segments when incremental), a grown one, and a full one; without
     * content parts for a format 1 writer, which cannot store them.
     */
    private static List<AgentCheckpoint> written(String agentId, boolean legacy) {
        List<Message> history = Checkpoints.history(HISTORY);
        var grown = new ArrayList<>(history);
        for (Message message : Checkpoints.history(9)) {
            grown.add(message.withId("grown-" + message.id()));
        }
        var full = Checkpoints.full(agentId, 2);
        if (legacy) {
            full = full.toBuilder()
                    .messageHistory(withoutParts(full.messageHistory()))
                    .build();
        }
        var longFull = AgentCheckpoint.builder()
                .checkpointId(full.checkpointId())
                .agentId(agentId)
                .version(2)
                .createdAt(full.createdAt())
                .nodeId(full.nodeId())
                .lastInput(full.lastInput())
                .lastInputType(full.lastInputType())
                .messageHistory(concat(history, full.messageHistory()))
                .state(full.state())
                .metadata(full.metadata())
                .parentCheckpointId(full.parentCheckpointId())
                .build();
        return List.of(
                Checkpoints.builder(agentId, 0)
                        .messageHistory(history)
                        .metadata(Map.of("phase", "one"))
                        .build(),
                Checkpoints.builder(agentId, 1)
                        .messageHistory(grown)
                        .metadata(Map.of("phase", "two"))
                        .build(),
                longFull);
    }

    private static List<Message> withoutParts(List<Message> messages) {
        return messages.stream().map(m -> m.withParts(List.of())).toList();
    }

    /** {@code checkpoint} with message ids replaced by their positions: how format 1 documents compare. */
    private static AgentCheckpoint idsByPosition(AgentCheckpoint checkpoint) {
        var messages = new ArrayList<Message>();
        for (Message message : checkpoint.messageHistory()) {
            messages.add(message.withId("#" + messages.size()));
        }
        return checkpoint.toBuilder().messageHistory(messages).build();
    }

    private static List<AgentCheckpoint> idsByPosition(List<AgentCheckpoint> checkpoints) {
        return checkpoints.stream().map(ReadMatrixContract::idsByPosition).toList();
    }

    private static List<Message> concat(List<Message> a, List<Message> b) {
        var all = new ArrayList<Message>(a);
        all.addAll(b);
        return all;
    }

    @TestFactory
    @DisplayName("each configuration reads what each configuration wrote, complete and equal")
    Stream<DynamicTest> everyReaderReadsEveryWriter() {
        return skippedWithReasonIfAborted(this::everyReaderReadsEveryWriterTests);
    }

    /**
     * The factory's tests, or, when a hook the group needs is left out and the factory aborts, one test that is skipped
     * with the reason: a factory aborted before it made its tests shows in build reports as no test at all.
     */
    private static Stream<DynamicTest> skippedWithReasonIfAborted(
            java.util.function.Supplier<Stream<DynamicTest>> tests) {
        try {
            return tests.get();
        } catch (org.opentest4j.TestAbortedException e) {
            return Stream.of(DynamicTest.dynamicTest("skipped: " + e.getMessage(), () -> {
                throw e;
            }));
        }
    }

    private Stream<DynamicTest> everyReaderReadsEveryWriterTests() {
        var configurations = configurations();
        var writers = new ArrayList<Writer>();
        var providers = new LinkedHashMap<Configuration, PersistenceStorageProvider<CheckpointFilter>>();
        for (Configuration configuration : configurations) {
            providers.put(configuration, newProvider(configuration.settings()));
            writers.add(new Writer(configuration, Optional.empty()));
        }
        for (JsonWriter json : jsonWriters()) {
            for (Configuration configuration : configurations) {
                writers.add(new Writer(configuration, Optional.of(json)));
            }
        }
        var agents = new LinkedHashMap<Writer, String>();
        for (Writer writer : writers) {
            String agentId = agent("matrix-" + agents.size());
            agents.put(writer, agentId);
            saveAll(providers.get(writer.configuration()), agentId, writer.checkpoints(agentId));
        }
        var tests = new ArrayList<DynamicTest>();
        for (Writer writer : writers) {
            writer.json().ifPresent(json -> tests.add(sameDocumentTest(writer)));
            for (Configuration reader : configurations) {
                String agentId = agents.get(writer);
                var provider = providers.get(reader);
                tests.add(DynamicTest.dynamicTest("written " + writer.name() + ", read " + reader.name(), () -> {
                    if (writer.configuration().encrypts() && !reader.encrypts()) {
                        assertMissingKey(provider, agentId);
                    } else if (writer.configuration().legacy()) {
                        assertReadsBackWithDerivedIds(provider, agentId);
                    } else {
                        assertReadsBack(provider, agentId);
                    }
                }));
            }
        }
        return tests.stream();
    }

    /** The documents the writer's codec encodes from its library's checkpoints are byte for byte Jackson 2's. */
    private static DynamicTest sameDocumentTest(Writer writer) {
        return DynamicTest.dynamicTest("written " + writer.name() + ": the documents of Jackson 2", () -> {
            var codec = JsonCheckpointCodec.writingFormat(
                    writer.configuration().settings().formatVersion());
            var jackson2 = written("matrix-document", writer.configuration().legacy());
            var other = writer.checkpoints("matrix-document");
            for (int i = 0; i < jackson2.size(); i++) {
                assertThat(other.get(i)).as("checkpoint %d", i).isEqualTo(jackson2.get(i));
                assertThat(codec.encode(other.get(i)))
                        .as("document of checkpoint %d", i)
                        .isEqualTo(codec.encode(jackson2.get(i)));
            }
        });
    }

    @TestFactory
    @DisplayName("a checkpoint re-saved with other settings is an idempotent retry, a different one a conflict")
    Stream<DynamicTest> resaveAcrossConfigurations() {
        return skippedWithReasonIfAborted(this::resaveAcrossConfigurationsTests);
    }

    private Stream<DynamicTest> resaveAcrossConfigurationsTests() {
        var configurations = configurations();
        var first = newProvider(configurations.get(configurations.size() - 1).settings());
        String agentId = agent("matrix-resave");
        saveAll(first, agentId, written(agentId, false));
        var tests = new ArrayList<DynamicTest>();
        for (Configuration other : configurations) {
            if (!other.encrypts() || other.legacy()) {
                continue;
            }
            var provider = newProvider(other.settings());
            tests.add(DynamicTest.dynamicTest("re-saved " + other.name(), () -> {
                for (AgentCheckpoint checkpoint : written(agentId, false)) {
                    provider.saveCheckpoint(agentId, checkpoint);
                }
                var changed = Checkpoints.builder(agentId, 1)
                        .messageHistory(Checkpoints.history(3))
                        .build();
                assertThatThrownBy(() -> provider.saveCheckpoint(agentId, changed))
                        .isInstanceOf(dev.agentpersistence.CheckpointConflictException.class);
                assertReadsBack(provider, agentId);
            }));
        }
        return tests.stream();
    }

    @org.junit.jupiter.api.Test
    @DisplayName("an agent written in tiered segments, then in the message log, reads back from both; collection keeps"
            + " what each kept checkpoint needs")
    void tieredThenLog() {
        var tiers = IncrementalHistoryConfig.custom()
                .layout("tiers")
                .blockSize(4)
                .tierSizes(List.of(32, 8))
                .gracePeriod(java.time.Duration.ZERO)
                .build();
        var log = IncrementalHistoryConfig.from(tiers).layout("log").build();
        var older = newProvider(StorageSettings.custom().history(tiers).build());
        var newer = newProvider(StorageSettings.custom().history(log).build());
        String agentId = agent("matrix-upgrade");
        List<Message> history = new ArrayList<>(Checkpoints.history(70));
        var saved = new ArrayList<AgentCheckpoint>();
        for (int version = 0; version < 6; version++) {
            var writer = version < 3 ? older : newer;
            if (version == 3) {
                assertThat(newer.getLatestCheckpoint(agentId)).contains(saved.get(2));
            }
            if (version == 4) {
                history = new ArrayList<>(history.subList(0, 75)); // a rollback into the tiered part
            }
            history.addAll(Checkpoints.history(5).stream()
                    .map(m -> m.withId(m.id() + "-" + saved.size()))
                    .toList());
            var checkpoint = Checkpoints.builder(agentId, version)
                    .messageHistory(List.copyOf(history))
                    .build();
            writer.saveCheckpoint(agentId, checkpoint);
            saved.add(checkpoint);
        }
        newer.deleteCheckpointsBefore(agentId, 2);
        var kept = saved.subList(2, saved.size());
        for (var reader : List.of(older, newer, newProvider(StorageSettings.ofDefaults()))) {
            assertThat(reader.getCheckpoints(agentId)).containsExactlyElementsOf(kept);
        }
    }

    @org.junit.jupiter.api.Test
    @DisplayName(
            "a reader with encryption reads the blobs a writer without it stored under their plain names, and its own"
                    + " save of the same part leaves the writer's checkpoints readable")
    void encryptingReaderReadsPlainBlobNames() {
        var plainWriter = newProvider(StorageSettings.custom()
                .layers(DocumentLayers.none())
                .blobThreshold(1)
                .build());
        var encrypting = newProvider(StorageSettings.custom()
                .layers(DocumentLayers.custom()
                        .checksum(true)
                        .compression(true)
                        .encryption(
                                EncryptionKeys.custom().key("matrix-k1", KEY).build())
                        .build())
                .blobThreshold(1)
                .build());
        String agentId = agent("matrix-plain-blobs");
        // bytes no other test of the kit saves, so no writer with encryption stored them under a keyed name before
        byte[] image = BlobContract.image(agentId.hashCode() * 31L + 7, 2048);
        Message photo = new Message(
                "photo",
                Message.Role.USER,
                "what is in this picture?",
                List.of(ContentPart.bytes(ContentPart.MediaKind.IMAGE, image, "image/png")),
                null,
                Map.of());
        var first =
                Checkpoints.builder(agentId, 0).messageHistory(List.of(photo)).build();
        plainWriter.saveCheckpoint(agentId, first);

        assertThat(encrypting.getCheckpoint(agentId, first.checkpointId())).contains(first);
        assertThat(encrypting.getLatestCheckpoint(agentId)).contains(first);

        var second = Checkpoints.builder(agentId, 1)
                .messageHistory(List.of(photo, Message.assistant("a cat").withId("answer")))
                .build();
        encrypting.saveCheckpoint(agentId, second);
        assertThat(encrypting.getCheckpoints(agentId)).containsExactly(first, second);
        assertThat(plainWriter.getCheckpoint(agentId, first.checkpointId())).contains(first);
        assertMissingKeyFor(plainWriter, agentId, second.checkpointId());
    }

    private static void assertMissingKeyFor(
            PersistenceStorageProvider<CheckpointFilter> provider, String agentId, String checkpointId) {
        assertThatThrownBy(() -> provider.getCheckpoint(agentId, checkpointId))
                .isInstanceOf(EncryptionKeyException.class)
                .hasMessageContaining("matrix-k1");
    }

    private static void saveAll(
            PersistenceStorageProvider<CheckpointFilter> provider, String agentId, List<AgentCheckpoint> checkpoints) {
        for (AgentCheckpoint checkpoint : checkpoints) {
            provider.saveCheckpoint(agentId, checkpoint);
        }
    }

    /**
     * A format 1 document reads complete; its messages carry derived ids, the same on every read (so a loaded
     * checkpoint saved again is an idempotent retry), and otherwise equal what was saved.
     */
    private static void assertReadsBackWithDerivedIds(
            PersistenceStorageProvider<CheckpointFilter> provider, String agentId) {
        var expected = written(agentId, true);
        List<AgentCheckpoint> read = provider.getCheckpoints(agentId);
        assertThat(idsByPosition(read))
                .as("getCheckpoints, ids aside")
                .containsExactlyElementsOf(idsByPosition(expected));
        assertThat(provider.getCheckpoints(agentId))
                .as("derived ids are stable")
                .isEqualTo(read);
        assertThat(read)
                .flatExtracting(AgentCheckpoint::messageHistory)
                .extracting(Message::id)
                .allMatch(JsonCheckpointCodec::isDerivedMessageId, "derived");
        assertThat(provider.getLatestCheckpoint(agentId))
                .as("getLatestCheckpoint")
                .contains(read.get(2));
        for (AgentCheckpoint checkpoint : read) {
            assertThat(provider.getCheckpoint(agentId, checkpoint.checkpointId()))
                    .as("getCheckpoint")
                    .contains(checkpoint);
        }
        assertThat(provider.getCheckpoints(
                        agentId,
                        CheckpointFilter.builder().metadata("phase", "two").build()))
                .as("metadata filter")
                .containsExactly(read.get(1));
        provider.saveCheckpoint(agentId, read.get(1)); // the same checkpoint as read: an idempotent retry
    }

    private static void assertReadsBack(PersistenceStorageProvider<CheckpointFilter> provider, String agentId) {
        var expected = written(agentId, false);
        assertThat(provider.getCheckpoints(agentId)).as("getCheckpoints").containsExactlyElementsOf(expected);
        assertThat(provider.getLatestCheckpoint(agentId))
                .as("getLatestCheckpoint")
                .contains(expected.get(2));
        for (AgentCheckpoint checkpoint : expected) {
            assertThat(provider.getCheckpoint(agentId, checkpoint.checkpointId()))
                    .as("getCheckpoint")
                    .contains(checkpoint);
        }
        assertThat(provider.getCheckpoints(
                        agentId,
                        CheckpointFilter.builder().metadata("phase", "two").build()))
                .as("metadata filter")
                .containsExactly(expected.get(1));
        assertThat(provider.getLatestCheckpoint(
                        agentId, CheckpointFilter.builder().maxVersion(1L).build()))
                .as("latest with maxVersion")
                .contains(expected.get(1));
        assertThat(provider.getCheckpoints(
                        agentId, CheckpointFilter.builder().limit(1).build()))
                .as("limit")
                .containsExactly(expected.get(2));
    }

    private static void assertMissingKey(PersistenceStorageProvider<CheckpointFilter> provider, String agentId) {
        var expected = written(agentId, false);
        for (var read : List.<Runnable>of(
                () -> provider.getLatestCheckpoint(agentId),
                () -> provider.getCheckpoints(agentId),
                () -> provider.getCheckpoint(agentId, expected.get(0).checkpointId()))) {
            assertThatThrownBy(read::run)
                    .isInstanceOf(EncryptionKeyException.class)
                    .isInstanceOf(CorruptCheckpointException.class)
                    .satisfies(e -> assertThat(((CorruptCheckpointException) e).agentId())
                            .isEqualTo(agentId))
                    .hasMessageContaining("matrix-k1");
        }
    }
}
