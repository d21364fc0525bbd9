package dev.agentpersistence.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.Message;
import dev.agentpersistence.backend.BlobArea;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.backend.StoredForm;
import dev.agentpersistence.codec.DocumentLayers;
import dev.agentpersistence.codec.EncryptionKeys;
import dev.agentpersistence.history.MutableClock;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * With encryption, blob names are keyed hashes: a dump of the store does not tell someone holding the same file that
 * the store holds it. Blobs named under an earlier key of the ring, or by their plain hash (written before encryption,
 * or by an earlier version), still read and are still protected from collection while referenced.
 */
class EncryptedBlobNamesTest {
    private static final byte[] KEY_1 = "encrypted blob names test key 1!".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEY_2 = "encrypted blob names test key 2!".getBytes(StandardCharsets.US_ASCII);

    private final MutableClock clock = new MutableClock(Instant.parse("2026-06-01T10:00:00Z"));
    private final MapBackend backend = new MapBackend(clock);
    private final byte[] image = image();

    @Test
    void anEncryptedStoreNamesItsBlobsByAKeyedHash() throws Exception {
        var checkpoint = withImage("vision", 0);
        try (var shell = shell(EncryptionKeys.custom().key("k1", KEY_1).build())) {
            shell.saveCheckpoint("vision", checkpoint);
            assertThat(names(shell))
                    .singleElement()
                    .asString()
                    .startsWith("blob-k1-")
                    .doesNotContain(sha256(image))
                    .hasSize("blob-k1-".length() + 32);
            assertThat(shell.getCheckpoints("vision")).containsExactly(checkpoint);
        }
        try (var plain = StorageShell.builder(backend).clock(clock).build()) {
            assertThat(names(plain)).as("the same area, read without the key").doesNotContain("blob-" + sha256(image));
        }
    }

    @Test
    void blobsNamedUnderAnEarlierKeyReadAfterARotationAndTheNextSaveNamesThemUnderTheNewKey() {
        var first = withImage("vision", 0);
        try (var shell = shell(EncryptionKeys.custom().key("k1", KEY_1).build())) {
            shell.saveCheckpoint("vision", first);
        }
        var rotated = EncryptionKeys.custom()
                .key("k1", KEY_1)
                .key("k2", KEY_2)
                .currentKey("k2")
                .build();
        var second = withImage("vision", 1);
        try (var shell = shell(rotated)) {
            assertThat(shell.getCheckpoints("vision")).containsExactly(first);
            shell.saveCheckpoint("vision", second);
            Set<String> names = names(shell);
            assertThat(names)
                    .hasSize(2)
                    .anyMatch(n -> n.startsWith("blob-k1-"))
                    .anyMatch(n -> n.startsWith("blob-k2-"));

            // both referenced: the first checkpoint by the k1 name, the second by the k2 name
            clock.advance(Duration.ofDays(1));
            shell.storedForm().orElseThrow().collectBlobs(clock.instant());
            assertThat(names(shell)).isEqualTo(names);
            assertThat(shell.getCheckpoints("vision")).containsExactly(first, second);
        }
    }

    @Test
    void aBlobUnderItsPlainNameInAnEncryptedStoreStillReadsAndIsKeptWhileReferenced() throws Exception {
        var checkpoint = withImage("vision", 0);
        var keys = EncryptionKeys.custom().key("k1", KEY_1).build();
        try (var shell = shell(keys)) {
            shell.saveCheckpoint("vision", checkpoint);
            BlobArea area = area(shell);
            String keyed = names(shell).iterator().next();
            // as a store written by a version that named every blob by its hash leaves it
            byte[] stored =
                    area.segments().getSegments(area.agentId(), List.of(keyed)).get(keyed);
            area.segments()
                    .deleteSegments(
                            area.agentId(), List.of(keyed), clock.instant().plusSeconds(1));
            area.segments().putSegment(area.agentId(), "blob-" + sha256(image), stored);
        }
        try (var shell = shell(keys)) {
            assertThat(shell.getCheckpoints("vision")).containsExactly(checkpoint);
            clock.advance(Duration.ofDays(1));
            assertThat(shell.storedForm().orElseThrow().collectBlobs(clock.instant()))
                    .isZero();
            assertThat(names(shell)).containsExactly("blob-" + sha256(image));
        }
    }

    private StorageShell shell(EncryptionKeys keys) {
        var settings = StorageSettings.custom()
                .layers(DocumentLayers.custom().encryption(keys).build())
                .build();
        return StorageShell.builder(backend).clock(clock).settings(settings).build();
    }

    private static BlobArea area(StorageShell shell) {
        return shell.storedForm().flatMap(StoredForm::blobArea).orElseThrow();
    }

    private static Set<String> names(StorageShell shell) {
        BlobArea area = area(shell);
        return area.segments().listSegments(area.agentId()).stream()
                .map(SegmentInfo::segmentId)
                .collect(Collectors.toSet());
    }

    private AgentCheckpoint withImage(String agent, long version) {
        var message = new Message(
                "m" + version,
                Message.Role.USER,
                "",
                List.of(ContentPart.bytes(ContentPart.MediaKind.IMAGE, image, "image/png")),
                null,
                Map.of());
        return AgentCheckpoint.builder()
                .checkpointId("cp-" + version)
                .agentId(agent)
                .version(version)
                .createdAt(clock.instant())
                .messageHistory(List.of(message))
                .build();
    }

    private static byte[] image() {
        byte[] bytes = new byte[100_000];
        new Random(5).nextBytes(bytes);
        return bytes;
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
