package dev.agentpersistence.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * Bytes written by an earlier version stay readable, and the same settings still write them byte for byte: a
 * compressed, checksummed and encrypted document as the layers of commit 3e2ff54 wrote it.
 */
class EarlierDocumentsTest {
    /** A fixed test key: never use it for real data. */
    private static final byte[] KEY = "agent-persistence golden key 32b".getBytes(StandardCharsets.US_ASCII);

    private static final byte[] DOCUMENT = ("{\"agentId\":\"a\",\"note\":\"stored by an earlier version, read by every"
                    + " later one\"}")
            .getBytes(StandardCharsets.UTF_8);
    private static final String WRITTEN_BY_3E2FF54 =
            "qUFQRQEJZ29sZGVuLWsx5la8KqWO8CRrfAiANQX0TmHy4mhSdCWAnHTR2bxhAEni+0mf"
                    + "YMCixpv+Zi4ff/ugd+bMy47pT6DMdZOr94HW/KUH7975hAVy/OvZbLV3idwYtFBzxkvvxwT6BhJI91KfpRZbLK6OPKobM"
                    + "VbdGCjF"
                    + "cnrBGEa0a66HHcvU";

    private static DocumentLayers layers() {
        // deflate: the only compression of that version
        return DocumentLayers.custom()
                .checksum(true)
                .compression(true)
                .compressionAlgorithm(CompressionAlgorithm.DEFLATE)
                .compressionMinSize(0)
                .encryption(EncryptionKeys.custom().key("golden-k1", KEY).build())
                .build();
    }

    @Test
    void anEncryptedCompressedDocumentOfAnEarlierVersionReadsAndIsWrittenAlike() {
        byte[] stored = Base64.getDecoder().decode(WRITTEN_BY_3E2FF54);
        assertThat(layers().unwrap(stored, new CheckpointLocation("a", "c", "a fixture")))
                .isEqualTo(DOCUMENT);
        assertThat(layers().wrap(DOCUMENT)).as("same settings, same bytes").isEqualTo(stored);
    }
}
