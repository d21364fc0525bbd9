package dev.agentpersistence.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CheckpointTooLargeException;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.EncryptionKeyException;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.codec.DocumentLayers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stored data that went bad, on every backend that stores bytes: truncated, random bytes, a newer format version, a
 * wrong checksum, a wrong or missing encryption key. Each gives a {@link CorruptCheckpointException} naming agent and
 * location while the agent's other checkpoints stay readable; plaintext, checksummed and encrypted documents are read
 * side by side; a checkpoint over the configured size is refused with nothing stored.
 */
class StoredDataIntegrityTest {
    private static final String K1 = key(1);
    private static final String K2 = key(2);
    private static final String K1_WRONG = key(3);

    private static Path dir;
    private static Backends backends;

    @BeforeAll
    static void start() throws Exception {
        dir = Ids.scratch("integrity");
        backends = new Backends(dir);
    }

    @AfterAll
    static void stop() throws Exception {
        backends.close();
        Ids.delete(dir);
    }

    static List<Backend> stored() {
        return backends.stored();
    }

    private static String key(int seed) {
        byte[] key = new byte[32];
        new Random(seed).nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stored")
    void corruptDocumentsAreReportedWithWhereAndTheOtherCheckpointsStayReadable(Backend backend) throws Exception {
        Map<String, UnaryOperator<byte[]>> damages = new LinkedHashMap<>();
        damages.put("truncated", b -> Arrays.copyOf(b, b.length / 2));
        damages.put("random bytes", b -> {
            byte[] junk = new byte[b.length];
            new Random(7).nextBytes(junk);
            return junk;
        });
        damages.put("empty", b -> new byte[0]);
        damages.put(
                "newer format version",
                b -> DocumentLayers.custom()
                        .checksum(true)
                        .build()
                        .wrap(plain(b).replaceFirst("\"formatVersion\":\\d+", "\"formatVersion\":7")
                                .getBytes(StandardCharsets.UTF_8)));
        damages.put("wrong checksum", b -> {
            byte[] altered = b.clone();
            altered[altered.length - 3] ^= 0x01;
            return altered;
        });
        damages.put("another checkpoint's document", b -> CheckpointCodec.json().encode(Samples.of("someone-else", 1)));
        int reported = 0;
        try (var storage = backend.open();
                RawStore raw = backend.raw().get()) {
            String agent = Ids.unique("corrupt");
            for (long v = 0; v < 3; v++) {
                storage.saveCheckpoint(agent, Samples.of(agent, v));
            }
            byte[] original = raw.read(agent, 1);
            assertThat(new String(original, 0, 8, StandardCharsets.US_ASCII))
                    .as("checksummed by default")
                    .isEqualTo("#crc32c:");
            for (var damage : damages.entrySet()) {
                raw.write(agent, 1, damage.getValue().apply(original));
                assertThatThrownBy(() -> storage.getCheckpoint(agent, Samples.idOf(1)))
                        .as(damage.getKey())
                        .isInstanceOfSatisfying(CorruptCheckpointException.class, e -> {
                            assertThat(e.agentId()).isEqualTo(agent);
                            assertThat(e.location()).contains(raw.locationHint(agent, 1));
                            assertThat(e.getMessage()).contains(agent);
                        });
                assertThatThrownBy(() -> storage.getCheckpoints(agent))
                        .as(damage.getKey())
                        .isInstanceOf(CorruptCheckpointException.class);
                assertOthersReadable(storage, agent, raw);
                reported++;
            }
            raw.write(agent, 1, original);
            assertThat(storage.getCheckpoints(agent))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(0L, 1L, 2L);
        }
        Figures.record(
                "corrupt stored data",
                backend.label(),
                damages.size() + " kinds of damage, " + reported
                        + " reported as CorruptCheckpointException with agent and location; v0 and v2 readable each "
                        + "time");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stored")
    void plainChecksummedAndEncryptedDocumentsAreReadSideBySideWithKeyRotation(Backend backend) throws Exception {
        String agent = Ids.unique("encrypted");
        var plain = Map.of("agent.persistence.checksum", "false", "agent.persistence.compression", "none");
        var k1 = Map.of("agent.persistence.encryption.keys", "k1:" + K1);
        var rotated = Map.of(
                "agent.persistence.encryption.keys",
                "k1:" + K1 + ",k2:" + K2,
                "agent.persistence.encryption.current-key",
                "k2");
        try (var storage = backend.open(plain)) {
            storage.saveCheckpoint(agent, Samples.of(agent, 0));
        }
        try (var storage = backend.open()) {
            storage.saveCheckpoint(agent, Samples.of(agent, 1));
        }
        try (var storage = backend.open(k1)) {
            storage.saveCheckpoint(agent, Samples.of(agent, 2));
        }
        try (var storage = backend.open(rotated)) {
            storage.saveCheckpoint(agent, Samples.of(agent, 3));
            assertThat(storage.getCheckpoints(agent))
                    .containsExactly(
                            Samples.of(agent, 0), Samples.of(agent, 1), Samples.of(agent, 2), Samples.of(agent, 3));
        }
        try (RawStore raw = backend.raw().get()) {
            assertThat(new String(raw.read(agent, 0), StandardCharsets.UTF_8)).startsWith("{\"formatVersion\":2");
            assertThat(new String(raw.read(agent, 1), 0, 8, StandardCharsets.US_ASCII))
                    .isEqualTo("#crc32c:");
            assertThat(DocumentLayers.keyIdOf(raw.read(agent, 2))).isEqualTo("k1");
            assertThat(DocumentLayers.keyIdOf(raw.read(agent, 3))).isEqualTo("k2");
            for (long v = 2; v <= 3; v++) {
                assertThat(new String(raw.read(agent, v), StandardCharsets.ISO_8859_1))
                        .doesNotContain("formatVersion")
                        .doesNotContain(agent)
                        .doesNotContain("question");
            }
            assertKeyError(
                    backend,
                    Map.of("agent.persistence.encryption.keys", "k2:" + K2),
                    agent,
                    raw,
                    2,
                    "k1",
                    "not configured");
            assertKeyError(
                    backend,
                    Map.of(
                            "agent.persistence.encryption.keys",
                            "k1:" + K1_WRONG + ",k2:" + K2,
                            "agent.persistence.encryption.current-key",
                            "k2"),
                    agent,
                    raw,
                    2,
                    "k1",
                    "could not be decrypted");
            assertKeyError(backend, Map.of(), agent, raw, 3, "k2", "no encryption keys are configured");
        }
        try (var storage = backend.open(Map.of(
                "agent.persistence.encryption.keys",
                "k1:" + K1 + ",k2:" + K2,
                "agent.persistence.encryption.current-key",
                "k2",
                "agent.persistence.encryption.required",
                "true"))) {
            assertThatThrownBy(() -> storage.getCheckpoint(agent, Samples.idOf(0)))
                    .isInstanceOf(CorruptCheckpointException.class)
                    .hasMessageContaining("encryption is required");
            assertThat(storage.getCheckpoint(agent, Samples.idOf(3))).contains(Samples.of(agent, 3));
        }
        Figures.record(
                "encryption at rest",
                backend.label(),
                "plain, checksummed, k1- and k2-encrypted documents of "
                        + "one agent read side by side; missing key, wrong key and no keys each named the key id and "
                        + "location");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stored")
    void aCheckpointOverTheMaximumSizeIsRefusedAndNothingIsStored(Backend backend) throws Exception {
        String agent = Ids.unique("large");
        try (var storage = backend.open(Map.of("agent.persistence.max-checkpoint-size", "64KiB"))) {
            storage.saveCheckpoint(agent, Samples.of(agent, 0));
            var large = Samples.of(agent, 1).toBuilder()
                    .state("big", TextNode.valueOf("x".repeat(70_000)))
                    .build();
            assertThatThrownBy(() -> storage.saveCheckpoint(agent, large))
                    .isInstanceOfSatisfying(CheckpointTooLargeException.class, e -> {
                        assertThat(e.agentId()).isEqualTo(agent);
                        assertThat(e.checkpointId()).isEqualTo(Samples.idOf(1));
                        assertThat(e.limit()).isEqualTo(65_536);
                        assertThat(e.size()).isGreaterThan(70_000);
                    });
            assertThat(storage.getCheckpoints(agent)).containsExactly(Samples.of(agent, 0));
            assertThat(storage.getCheckpoint(agent, Samples.idOf(1))).isEmpty();
            storage.saveCheckpoint(agent, Samples.of(agent, 1));
            assertThat(storage.getLatestCheckpoint(agent)).contains(Samples.of(agent, 1));
        }
    }

    private static void assertKeyError(
            Backend backend,
            Map<String, String> settings,
            String agent,
            RawStore raw,
            long version,
            String keyId,
            String problem)
            throws Exception {
        try (var storage = backend.open(settings)) {
            assertThatThrownBy(() -> storage.getCheckpoint(agent, Samples.idOf(version)))
                    .isInstanceOfSatisfying(EncryptionKeyException.class, e -> {
                        assertThat(e.keyId()).isEqualTo(keyId);
                        assertThat(e.agentId()).isEqualTo(agent);
                        assertThat(e.location()).contains(raw.locationHint(agent, version));
                    })
                    .hasMessageContaining(problem)
                    .satisfies(e -> assertThat(e.toString())
                            .doesNotContain(K1)
                            .doesNotContain(K2)
                            .doesNotContain(K1_WRONG));
            assertThat(storage.getCheckpoint(agent, Samples.idOf(0))).contains(Samples.of(agent, 0));
            assertThat(storage.getCheckpoint(agent, Samples.idOf(1))).contains(Samples.of(agent, 1));
        }
    }

    private static void assertOthersReadable(
            PersistenceStorageProvider<CheckpointFilter> storage, String agent, RawStore raw) {
        assertThat(storage.getCheckpoint(agent, Samples.idOf(0))).contains(Samples.of(agent, 0));
        assertThat(storage.getCheckpoint(agent, Samples.idOf(2))).contains(Samples.of(agent, 2));
        assertThat(storage.getLatestCheckpoint(agent)).contains(Samples.of(agent, 2));
        assertThat(storage.getCheckpoints(
                        agent, CheckpointFilter.builder().maxVersion(0L).build()))
                .containsExactly(Samples.of(agent, 0));
        // A metadata filter answered from an index skips the damaged document; a provider that must read
        // documents to evaluate it (file) reports the damaged one, naming where it is, instead of guessing.
        var even = CheckpointFilter.builder().metadata(Map.of("parity", "even")).build();
        try {
            assertThat(storage.getCheckpoints(agent, even)).containsExactly(Samples.of(agent, 0), Samples.of(agent, 2));
        } catch (CorruptCheckpointException e) {
            assertThat(e.agentId()).isEqualTo(agent);
            assertThat(e.location()).contains(raw.locationHint(agent, 1));
        }
    }

    private static String plain(byte[] stored) {
        return new String(
                DocumentLayers.none().unwrap(stored, new dev.agentpersistence.codec.CheckpointLocation("a", null, "x")),
                StandardCharsets.UTF_8);
    }
}
