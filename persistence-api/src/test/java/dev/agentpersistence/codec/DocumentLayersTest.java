package dev.agentpersistence.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.EncryptionKeyException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class DocumentLayersTest {
    static final byte[] KEY_1 = key(1);
    static final byte[] KEY_2 = key(2);
    private static final CheckpointLocation WHERE =
            new CheckpointLocation("agent-1", "cp-1", "/data/agent-1/1.checkpoint");
    private static final byte[] DOC = "{\"formatVersion\":1,\"x\":\"ünï 😀\"}".getBytes(StandardCharsets.UTF_8);

    static byte[] key(int seed) {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) seed);
        key[0] = (byte) (seed * 31);
        return key;
    }

    static EncryptionKeys ring(String current) {
        return EncryptionKeys.custom()
                .key("k1", KEY_1)
                .key("k2", KEY_2)
                .currentKey(current)
                .build();
    }

    @Test
    void noneWritesTheDocumentUnchanged() {
        assertThat(DocumentLayers.none().wrap(DOC)).isEqualTo(DOC);
        assertThat(DocumentLayers.none().unwrap(DOC, WHERE)).isEqualTo(DOC);
        assertThat(DocumentLayers.none().writesPlain()).isTrue();
    }

    @Test
    void checksumIsATextHeaderVerifiedOnRead() {
        var layers = DocumentLayers.custom().checksum(true).build();
        byte[] stored = layers.wrap(DOC);
        assertThat(new String(stored, 0, 17, StandardCharsets.US_ASCII)).matches("#crc32c:[0-9a-f]{8}\n");
        assertThat(Arrays.copyOfRange(stored, 17, stored.length)).isEqualTo(DOC);
        assertThat(layers.unwrap(stored, WHERE)).isEqualTo(DOC);
        // Verified even by layers that do not write checksums.
        assertThat(DocumentLayers.none().unwrap(stored, WHERE)).isEqualTo(DOC);
    }

    @Test
    void everyAlteredOrTruncatedChecksummedDocumentIsCorruptNamingWhere() {
        byte[] stored = DocumentLayers.custom().checksum(true).build().wrap(DOC);
        for (int i = 17; i < stored.length; i++) {
            byte[] altered = stored.clone();
            altered[i] ^= 0x01;
            assertCorrupt(altered, "checksum mismatch");
        }
        for (int length = 17; length < stored.length; length++) {
            assertCorrupt(Arrays.copyOf(stored, length), "checksum mismatch");
        }
        assertCorrupt(Arrays.copyOf(stored, 12), "truncated or malformed");
        byte[] badHex = stored.clone();
        badHex[9] = 'z';
        assertCorrupt(badHex, "malformed");
    }

    @Test
    void encryptionHidesTheDocumentNamesTheKeyAndRoundTrips() {
        var layers =
                DocumentLayers.custom().checksum(true).encryption(ring("k2")).build();
        byte[] stored = layers.wrap(DOC);
        assertThat(DocumentLayers.keyIdOf(stored)).isEqualTo("k2");
        assertThat(indexOf(stored, "formatVersion".getBytes(StandardCharsets.US_ASCII)))
                .isNegative();
        assertThat(layers.unwrap(stored, WHERE)).isEqualTo(DOC);
        assertThat(layers.wrap(DOC))
                .as("deterministic, as CheckpointCodec requires")
                .isEqualTo(stored);
        assertThat(layers.wrap("{\"other\":1}".getBytes(StandardCharsets.UTF_8)))
                .as("different documents use different nonces")
                .isNotEqualTo(stored);
        assertThat(Arrays.copyOfRange(layers.wrap(new byte[] {1}), 8, 20))
                .isNotEqualTo(Arrays.copyOfRange(layers.wrap(new byte[] {2}), 8, 20));
    }

    @Test
    void rotationReadsOldKeysAndWritesTheCurrentOne() {
        byte[] withK1 = DocumentLayers.custom().encryption(ring("k1")).build().wrap(DOC);
        var rotated = DocumentLayers.custom().encryption(ring("k2")).build();
        assertThat(rotated.unwrap(withK1, WHERE)).isEqualTo(DOC);
        assertThat(DocumentLayers.keyIdOf(rotated.wrap(DOC))).isEqualTo("k2");
    }

    @Test
    void plaintextAndEncryptedDocumentsAreReadSideBySide() {
        var layers = DocumentLayers.custom().encryption(ring("k1")).build();
        assertThat(layers.unwrap(DOC, WHERE)).isEqualTo(DOC);
        assertThat(layers.unwrap(DocumentLayers.custom().checksum(true).build().wrap(DOC), WHERE))
                .isEqualTo(DOC);
        assertThat(layers.unwrap(layers.wrap(DOC), WHERE)).isEqualTo(DOC);
    }

    @Test
    void aMissingKeyIsATypedErrorNamingTheKeyIdAndWhere() {
        byte[] stored = DocumentLayers.custom().encryption(ring("k2")).build().wrap(DOC);
        var onlyK1 = DocumentLayers.custom()
                .encryption(EncryptionKeys.custom().key("k1", KEY_1).build())
                .build();
        assertThatThrownBy(() -> onlyK1.unwrap(stored, WHERE))
                .isInstanceOfSatisfying(EncryptionKeyException.class, e -> {
                    assertThat(e.keyId()).isEqualTo("k2");
                    assertThat(e.location()).isEqualTo(WHERE.description());
                    assertThat(e.agentId()).isEqualTo("agent-1");
                    assertThat(e.checkpointId()).isEqualTo("cp-1");
                })
                .hasMessageContaining("key 'k2', which is not configured")
                .hasMessageContaining("[k1]")
                .hasMessageContaining("/data/agent-1/1.checkpoint");
        assertThatThrownBy(() -> DocumentLayers.none().unwrap(stored, WHERE))
                .isInstanceOf(EncryptionKeyException.class)
                .hasMessageContaining("no encryption keys are configured");
    }

    @Test
    void aWrongKeyOrTamperedCiphertextIsATypedErrorWithoutKeyMaterial() {
        byte[] stored = DocumentLayers.custom().encryption(ring("k1")).build().wrap(DOC);
        var wrongK1 = DocumentLayers.custom()
                .encryption(EncryptionKeys.custom().key("k1", KEY_2).build())
                .build();
        assertThatThrownBy(() -> wrongK1.unwrap(stored, WHERE))
                .isInstanceOf(EncryptionKeyException.class)
                .hasMessageContaining("could not be decrypted with key 'k1'")
                .satisfies(e -> assertThat(e.getMessage())
                        .doesNotContain(Base64.getEncoder().encodeToString(KEY_1))
                        .doesNotContain(Base64.getEncoder().encodeToString(KEY_2)));
        var right = DocumentLayers.custom().encryption(ring("k1")).build();
        for (int i = 0; i < stored.length; i++) {
            byte[] altered = stored.clone();
            altered[i] ^= 0x40;
            if (i < 4) {
                assertThat(right.unwrap(altered, WHERE))
                        .as("no longer marked encrypted: left to the JSON codec")
                        .isEqualTo(altered);
            } else {
                assertThatThrownBy(() -> right.unwrap(altered, WHERE))
                        .as("byte %d altered", i)
                        .isInstanceOf(CorruptCheckpointException.class);
            }
        }
        for (int length = 0; length < stored.length; length++) {
            byte[] truncated = Arrays.copyOf(stored, length);
            if (length < 4) {
                assertThat(right.unwrap(truncated, WHERE))
                        .as("too short to be recognised, left to the JSON codec")
                        .isEqualTo(truncated);
            } else {
                assertThatThrownBy(() -> right.unwrap(truncated, WHERE))
                        .as("truncated to %d", length)
                        .isInstanceOf(CorruptCheckpointException.class);
            }
        }
    }

    @Test
    void anUnknownEncryptionLayerVersionIsCorrupt() {
        byte[] stored = DocumentLayers.custom().encryption(ring("k1")).build().wrap(DOC);
        stored[4] = 9;
        assertThatThrownBy(() ->
                        DocumentLayers.custom().encryption(ring("k1")).build().unwrap(stored, WHERE))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("encryption layer version 9");
    }

    @Test
    void requiringEncryptionRefusesPlaintext() {
        var layers = DocumentLayers.custom()
                .encryption(ring("k1"))
                .requireEncryption(true)
                .build();
        assertThatThrownBy(() -> layers.unwrap(DOC, WHERE))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("not encrypted, but encryption is required");
        assertThat(layers.unwrap(layers.wrap(DOC), WHERE)).isEqualTo(DOC);
        assertThatThrownBy(() -> DocumentLayers.custom().requireEncryption(true).build())
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void toStringShowsKeyIdsOnly() {
        String text = DocumentLayers.custom().encryption(ring("k1")).build().toString();
        assertThat(text).contains("k1", "k2").doesNotContain(Base64.getEncoder().encodeToString(KEY_1));
    }

    private static void assertCorrupt(byte[] stored, String problem) {
        assertThatThrownBy(() -> DocumentLayers.none().unwrap(stored, WHERE))
                .isInstanceOf(CorruptCheckpointException.class)
                .isNotInstanceOf(EncryptionKeyException.class)
                .hasMessageContaining(problem)
                .hasMessageContaining("'cp-1' of agent 'agent-1' at /data/agent-1/1.checkpoint");
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
