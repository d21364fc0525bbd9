package dev.agentpersistence.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.EncryptionKeyException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * The compression layer with LZ4, the default algorithm; {@link DocumentLayersCompressionTest} holds deflate's side.
 */
class Lz4CompressionTest {
    private static final CheckpointLocation WHERE =
            new CheckpointLocation("agent-1", "cp-1", "/data/agent-1/1.checkpoint");
    private static final String NAMED = "'cp-1' of agent 'agent-1' at /data/agent-1/1.checkpoint";
    private static final byte[] MAGIC = {(byte) 0xA9, 'A', 'P', 'Z'};
    private static final byte[] DOC = DocumentLayersCompressionTest.jsonDocument(1, 8_000);
    private static final DocumentLayers LZ4 =
            DocumentLayers.custom().compression(true).build();
    private static final DocumentLayers DEFLATE = DocumentLayers.custom()
            .compression(true)
            .compressionAlgorithm(CompressionAlgorithm.DEFLATE)
            .build();
    /**
     * A 300-character document as this layer compressed it when it was introduced; guards the format against changes.
     */
    private static final String WRITTEN_WHEN_INTRODUCED =
            "qUFQWgIAAAFTEDstZ/MleyJmb3JtYXRWZXJzaW9uIjoxLCJtZXNzYWdlcyI6WyJhbmQgbWF5IHJldmlldyBjbGFpbQYA8gtzZWN0aW9"
                    + "uIDc4NzA4IHJldHJpZXMgc2VudAUA8QF0aGUgZHJhZnQgdGFibGVzEQDDd3JpdGVzIDQ5ODExSAAwYXNrNwBBYXJjaGsAACc"
                    + "A8AdmaXhlcyBudW1iZXJzIGEgc291cmNlCgCQMzUwMTIgcXVvRwACjwADnAD0AjExNTY1IG5hbWVzIGV2ZXJ5VQBjYWdhaW5"
                    + "zlgAEVADAdG9vbHMgMjc2Mzcg5QB0YSA5NDIyMXoAAUYABjkAAuoAQ3dpdGhbAGBiZWZvcmXTABNu5QCQZGF0ZXMgIl19";

    @Test
    void lz4IsTheDefaultAlgorithmAndItsHeaderNamesLengthAndChecksum() {
        assertThat(LZ4.compressionAlgorithm()).isEqualTo(CompressionAlgorithm.LZ4);
        byte[] stored = LZ4.wrap(DOC);
        assertThat(Arrays.copyOf(stored, 4)).isEqualTo(MAGIC);
        assertThat(stored[4]).as("format byte: LZ4").isEqualTo((byte) 2);
        assertThat(ByteBuffer.wrap(stored, 5, 4).getInt())
                .as("uncompressed length")
                .isEqualTo(DOC.length);
        var crc = new CRC32C();
        crc.update(DOC);
        assertThat(ByteBuffer.wrap(stored, 9, 4).getInt())
                .as("CRC32C of the document")
                .isEqualTo((int) crc.getValue());
        assertThat(stored.length).as("prose compresses").isLessThan(DOC.length * 2 / 3);
        assertThat(LZ4.unwrap(stored, WHERE)).isEqualTo(DOC);
        assertThat(LZ4.wrap(DOC))
                .as("deterministic, as CheckpointCodec requires")
                .isEqualTo(stored);
        assertThat(LZ4.toString()).contains("compression=lz4(from 512 bytes)");
    }

    @Test
    void everyAlgorithmReadsWhateverIsConfigured() {
        byte[] lz4 = LZ4.wrap(DOC);
        byte[] deflate = DEFLATE.wrap(DOC);
        assertThat(deflate[4]).isEqualTo((byte) 1);
        for (var reader : new DocumentLayers[] {
            LZ4,
            DEFLATE,
            DocumentLayers.none(),
            DocumentLayers.custom().checksum(true).build()
        }) {
            assertThat(reader.unwrap(lz4, WHERE)).as("%s reads LZ4", reader).isEqualTo(DOC);
            assertThat(reader.unwrap(deflate, WHERE))
                    .as("%s reads deflate", reader)
                    .isEqualTo(DOC);
        }
    }

    @Test
    void everyLayerCombinationRoundTripsWithLz4() {
        var keys = DocumentLayersTest.ring("k1");
        var all = DocumentLayers.custom()
                .compression(true)
                .checksum(true)
                .encryption(keys)
                .build();
        byte[] stored = all.wrap(DOC);
        assertThat(stored.length).as("compressed before encrypting").isLessThan(DOC.length * 2 / 3);
        assertThat(all.unwrap(stored, WHERE)).isEqualTo(DOC);
        var checksummed =
                DocumentLayers.custom().compression(true).checksum(true).build();
        assertThat(Arrays.copyOfRange(checksummed.wrap(DOC), 17, 22))
                .isEqualTo(new byte[] {(byte) 0xA9, 'A', 'P', 'Z', 2});
    }

    @Test
    void underTheChecksumLayerTheCompressedBytesAreVerifiedAndReadInPlace() {
        var layers = DocumentLayers.custom().compression(true).checksum(true).build();
        byte[] stored = layers.wrap(DOC);
        assertThat(layers.unwrap(stored, WHERE)).isEqualTo(DOC);
        byte[] altered = stored.clone();
        altered[40] ^= 0x01;
        assertThatThrownBy(() -> layers.unwrap(altered, WHERE))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("checksum mismatch")
                .hasMessageContaining(NAMED);
    }

    @Test
    void incompressibleAndTinyDocumentsStayPlain() {
        byte[] random = new byte[64 * 1024];
        new Random(3).nextBytes(random);
        assertThat(LZ4.wrap(random)).isEqualTo(random);
        var all =
                DocumentLayers.custom().compression(true).compressionMinSize(0).build();
        byte[] tiny = "{\"a\":1}".getBytes();
        assertThat(all.wrap(tiny)).isEqualTo(tiny);
        assertThat(all.wrap(new byte[0])).isEmpty();
    }

    @Test
    void everyAlteredBitIsCorruptNamingWhereOrHarmlessButNeverADifferentDocument() {
        byte[] document = DocumentLayersCompressionTest.jsonDocument(2, 3_000);
        var layers =
                DocumentLayers.custom().compression(true).compressionMinSize(0).build();
        // A match offset moved onto equal text: the same document.
        DocumentLayersCompressionTest.assertEveryAlteredBitIsCorruptOrHarmless(layers, layers.wrap(document), document);
    }

    @Test
    void everyTruncationAndTrailingBytesAreCorrupt() {
        byte[] stored = LZ4.wrap(DOC);
        for (int length = 5; length < stored.length; length++) {
            assertCorrupt(Arrays.copyOf(stored, length), length < 13 ? "truncated (no header)" : "compress");
        }
        assertCorrupt(Arrays.copyOf(stored, stored.length + 2), "LZ4 block is damaged");
        byte[] unknown = stored.clone();
        unknown[4] = 4;
        assertCorrupt(unknown, "compression layer version 4 is not one this library reads (1: deflate, 2: LZ4, 3:");
    }

    @Test
    void aDeclaredLengthThatLiesIsCorrupt() {
        byte[] stored = LZ4.wrap(DOC);
        assertCorrupt(
                withDeclaredLength(stored, DOC.length - 1),
                "LZ4 block is damaged or truncated, or holds more than the " + (DOC.length - 1) + " bytes it declares");
        assertCorrupt(
                withDeclaredLength(stored, DOC.length + 1),
                "holds " + DOC.length + " bytes, not the " + (DOC.length + 1) + " it declares");
        int beyondRatio = (stored.length - 13) * 256 + 1;
        assertCorrupt(
                withDeclaredLength(stored, beyondRatio),
                "more than its " + (stored.length - 13) + " compressed bytes can hold");
    }

    @Test
    void aHugeDeclaredLengthIsRefusedBeforeAnythingIsAllocated() {
        byte[] stored = LZ4.wrap(DOC);
        assertCorrupt(
                withDeclaredLength(stored, -1),
                "declares 4294967295 bytes uncompressed, over the maximum " + "checkpoint size of 67108864 bytes");
        assertThatThrownBy(() -> LZ4.unwrap(stored, WHERE, DOC.length - 1))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining(
                        "declares " + DOC.length + " bytes uncompressed, over the maximum checkpoint size");
        assertThat(LZ4.unwrap(stored, WHERE, DOC.length)).isEqualTo(DOC);
    }

    @Test
    void aBombDecompressesToNoMoreThanItsBoundedDeclaredLength() {
        byte[] zeros = new byte[16 << 20];
        byte[] bomb = LZ4.wrap(zeros);
        assertThat(bomb.length).as("16 MiB of zeros").isLessThan(80_000);
        assertThat(LZ4.unwrap(bomb, WHERE)).hasSize(zeros.length);
        assertThatThrownBy(() -> LZ4.unwrap(bomb, WHERE, 1 << 20))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("over the maximum checkpoint size of 1048576 bytes");
        assertCorrupt(withDeclaredLength(bomb, 1 << 20), "holds more than the 1048576 bytes it declares");
    }

    @Test
    void aDocumentWrittenWhenTheLayerWasIntroducedReadsAndGetsTheSameHeader() {
        byte[] document = DocumentLayersCompressionTest.jsonDocument(7, 300);
        var layers =
                DocumentLayers.custom().compression(true).compressionMinSize(0).build();
        byte[] stored = Base64.getDecoder().decode(WRITTEN_WHEN_INTRODUCED);
        assertThat(layers.unwrap(stored, WHERE)).isEqualTo(document);
        byte[] written = layers.wrap(document);
        // LZ4's native and Java compressors may choose different matches; the header is fixed either way.
        assertThat(Arrays.copyOf(written, 13)).as("same settings, same header").isEqualTo(Arrays.copyOf(stored, 13));
        assertThat(layers.unwrap(written, WHERE)).isEqualTo(document);
    }

    private static byte[] withDeclaredLength(byte[] stored, int length) {
        byte[] altered = stored.clone();
        ByteBuffer.wrap(altered, 5, 4).putInt(length);
        return altered;
    }

    private static void assertCorrupt(byte[] stored, String problem) {
        assertThatThrownBy(() -> LZ4.unwrap(stored, WHERE))
                .isInstanceOf(CorruptCheckpointException.class)
                .isNotInstanceOf(EncryptionKeyException.class)
                .hasMessageContaining(problem)
                .hasMessageContaining(NAMED);
    }
}
