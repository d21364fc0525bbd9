package dev.agentpersistence.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.EncryptionKeyException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

/** The compression layer with deflate; {@link Lz4CompressionTest} holds LZ4's side. */
class DocumentLayersCompressionTest {
    private static final CheckpointLocation WHERE =
            new CheckpointLocation("agent-1", "cp-1", "/data/agent-1/1.checkpoint");
    private static final String NAMED = "'cp-1' of agent 'agent-1' at /data/agent-1/1.checkpoint";
    private static final byte[] MAGIC = {(byte) 0xA9, 'A', 'P', 'Z'};
    private static final byte[] DOC = jsonDocument(1, 8_000);
    private static final DocumentLayers DEFLATE = DocumentLayers.custom()
            .compression(true)
            .compressionAlgorithm(CompressionAlgorithm.DEFLATE)
            .build();

    /** A JSON document of about {@code chars} characters of conversation-like text. */
    static byte[] jsonDocument(long seed, int chars) {
        return ("{\"formatVersion\":1,\"messages\":[\"" + prose(seed, chars) + "\"]}").getBytes(StandardCharsets.UTF_8);
    }

    /** Words from a small vocabulary with the odd number, so it compresses like a conversation. */
    static String prose(long seed, int chars) {
        String[] words = ("the agent reads a file and writes a summary of each section before it checks every claim "
                        + "against the sources then asks the user whether the draft may be sent to review with tables "
                        + "numbers dates names ünïcode 😀 quotes links errors fixes retries tools search results")
                .split(" ");
        var random = new Random(seed);
        var text = new StringBuilder(chars + 16);
        while (text.length() < chars) {
            text.append(words[random.nextInt(words.length)]).append(' ');
            if (random.nextInt(12) == 0) {
                text.append(random.nextInt(100_000)).append(' ');
            }
        }
        return text.toString();
    }

    @Test
    void theBuilderDefaultStillWritesDocumentsUnchanged() {
        var layers = DocumentLayers.custom().build();
        assertThat(layers.compresses()).isFalse();
        assertThat(layers.wrap(DOC)).isEqualTo(DOC);
        assertThat(DocumentLayers.none().compresses()).isFalse();
        assertThat(DocumentLayers.none().wrap(DOC)).isEqualTo(DOC);
    }

    @Test
    void compressedDocumentsStartWithTheHeaderAndRoundTrip() {
        byte[] stored = DEFLATE.wrap(DOC);
        assertThat(Arrays.copyOf(stored, 4)).isEqualTo(MAGIC);
        assertThat(stored[4]).as("layer version").isEqualTo((byte) 1);
        assertThat(ByteBuffer.wrap(stored, 5, 4).getInt())
                .as("uncompressed length")
                .isEqualTo(DOC.length);
        assertThat(stored.length).as("prose compresses well").isLessThan(DOC.length / 2);
        assertThat(DEFLATE.unwrap(stored, WHERE)).isEqualTo(DOC);
        assertThat(DEFLATE.writesPlain()).isFalse();
        assertThat(DEFLATE.wrap(DOC))
                .as("deterministic, as CheckpointCodec requires")
                .isEqualTo(stored);
        // Read by layers that do not compress, too.
        assertThat(DocumentLayers.none().unwrap(stored, WHERE)).isEqualTo(DOC);
        assertThat(DocumentLayers.custom().checksum(true).build().unwrap(stored, WHERE))
                .isEqualTo(DOC);
    }

    @Test
    void everyCombinationOfLayersRoundTripsAndReadsTheOthers() {
        var keys = DocumentLayersTest.ring("k1");
        var all = new ArrayList<DocumentLayers>();
        for (boolean compress : new boolean[] {false, true}) {
            for (boolean checksum : new boolean[] {false, true}) {
                for (boolean encrypt : new boolean[] {false, true}) {
                    var builder = DocumentLayers.custom()
                            .compression(compress)
                            .compressionAlgorithm(CompressionAlgorithm.DEFLATE)
                            .checksum(checksum);
                    if (encrypt) {
                        builder.encryption(keys);
                    }
                    all.add(builder.build());
                }
            }
        }
        var reader = DocumentLayers.custom().encryption(keys).build();
        for (var writer : all) {
            byte[] stored = writer.wrap(DOC);
            assertThat(writer.unwrap(stored, WHERE)).as(writer.toString()).isEqualTo(DOC);
            assertThat(reader.unwrap(stored, WHERE)).as(writer.toString()).isEqualTo(DOC);
            for (var other : all) {
                if (!writer.encrypts() || other.encrypts()) {
                    assertThat(other.unwrap(stored, WHERE))
                            .as(writer + " read by " + other)
                            .isEqualTo(DOC);
                }
            }
            if (writer.compresses()) {
                assertThat(stored.length).as(writer.toString()).isLessThan(DOC.length / 2);
            } else {
                assertThat(stored.length).as(writer.toString()).isGreaterThanOrEqualTo(DOC.length);
            }
        }
        var compressChecksumEncrypt = DocumentLayers.custom()
                .compression(true)
                .compressionAlgorithm(CompressionAlgorithm.DEFLATE)
                .checksum(true)
                .encryption(keys)
                .build();
        byte[] opened = reader.unwrap(compressChecksumEncrypt.wrap(DOC), WHERE);
        assertThat(opened).isEqualTo(DOC);
    }

    @Test
    void theLayersAreAppliedCompressThenChecksumThenEncrypt() {
        var keys = DocumentLayersTest.ring("k1");
        byte[] checksummed = DocumentLayers.custom()
                .compression(true)
                .compressionAlgorithm(CompressionAlgorithm.DEFLATE)
                .checksum(true)
                .build()
                .wrap(DOC);
        assertThat(new String(checksummed, 0, 8, StandardCharsets.US_ASCII)).isEqualTo("#crc32c:");
        assertThat(Arrays.copyOfRange(checksummed, 17, 21))
                .as("the checksum covers the compressed bytes")
                .isEqualTo(MAGIC);
        byte[] encrypted = DocumentLayers.custom()
                .compression(true)
                .compressionAlgorithm(CompressionAlgorithm.DEFLATE)
                .checksum(true)
                .encryption(keys)
                .build()
                .wrap(DOC);
        assertThat(DocumentLayers.keyIdOf(encrypted)).isEqualTo("k1");
        assertThat(encrypted.length).as("compressed before encrypting").isLessThan(DOC.length / 2);
    }

    @Test
    void documentsBelowTheThresholdStayPlain() {
        byte[] below = Arrays.copyOf(DOC, 511);
        byte[] at = Arrays.copyOf(DOC, 512);
        assertThat(DEFLATE.compressionMinSize()).isEqualTo(512);
        assertThat(DEFLATE.wrap(below)).isEqualTo(below);
        assertThat(Arrays.copyOf(DEFLATE.wrap(at), 4)).isEqualTo(MAGIC);
        var from100 = DocumentLayers.custom()
                .compression(true)
                .compressionAlgorithm(CompressionAlgorithm.DEFLATE)
                .compressionMinSize(100)
                .build();
        byte[] small = Arrays.copyOf(DOC, 200);
        assertThat(Arrays.copyOf(from100.wrap(small), 4)).isEqualTo(MAGIC);
        assertThat(from100.unwrap(from100.wrap(small), WHERE)).isEqualTo(small);
        var all = DocumentLayers.custom()
                .compression(true)
                .compressionAlgorithm(CompressionAlgorithm.DEFLATE)
                .compressionMinSize(0)
                .build();
        byte[] tiny = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
        assertThat(all.wrap(tiny))
                .as("a header longer than the saving: left plain")
                .isEqualTo(tiny);
        assertThat(all.wrap(new byte[0])).isEmpty();
    }

    @Test
    void incompressibleDocumentsStayPlain() {
        byte[] random = new byte[64 * 1024];
        new Random(3).nextBytes(random);
        assertThat(DEFLATE.wrap(random)).isEqualTo(random);
        var checksummed = DocumentLayers.custom()
                .compression(true)
                .compressionAlgorithm(CompressionAlgorithm.DEFLATE)
                .checksum(true)
                .build();
        byte[] stored = checksummed.wrap(random);
        assertThat(stored).hasSize(random.length + 17);
        assertThat(checksummed.unwrap(stored, WHERE)).isEqualTo(random);
    }

    @Test
    void everyLevelRoundTripsAndHigherLevelsAreNotLarger() {
        int previous = Integer.MAX_VALUE;
        for (int level : new int[] {1, 6, 9}) {
            var layers = DocumentLayers.custom()
                    .compression(true)
                    .compressionAlgorithm(CompressionAlgorithm.DEFLATE)
                    .compressionLevel(level)
                    .build();
            byte[] stored = layers.wrap(DOC);
            assertThat(layers.unwrap(stored, WHERE)).isEqualTo(DOC);
            assertThat(DEFLATE.unwrap(stored, WHERE))
                    .as("any level reads any other")
                    .isEqualTo(DOC);
            assertThat(stored.length).isLessThanOrEqualTo(previous);
            previous = stored.length;
        }
    }

    @Test
    void everyAlteredBitOfAnUnchecksummedCompressedDocumentIsCorruptNamingWhereOrHarmless() {
        byte[] document = jsonDocument(2, 5_000);
        byte[] stored = DEFLATE.wrap(document);
        for (int i = 0; i < 4; i++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] altered = stored.clone();
                altered[i] ^= (byte) (1 << bit);
                assertThat(DEFLATE.unwrap(altered, WHERE))
                        .as("no longer marked compressed: left to the JSON codec")
                        .isEqualTo(altered);
            }
        }
        // A padding bit after the last block, or a match distance moved to equal text: same document.
        assertEveryAlteredBitIsCorruptOrHarmless(DEFLATE, stored, document);
    }

    /**
     * Flips every bit after the magic of {@code stored}, one at a time: each read is a corrupt-document error naming
     * where, or gives {@code document} itself, and that for under 2% of the flips.
     */
    static void assertEveryAlteredBitIsCorruptOrHarmless(DocumentLayers layers, byte[] stored, byte[] document) {
        int harmless = 0;
        for (int i = 4; i < stored.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] altered = stored.clone();
                altered[i] ^= (byte) (1 << bit);
                byte[] read;
                try {
                    read = layers.unwrap(altered, WHERE);
                } catch (CorruptCheckpointException e) {
                    assertThat(e)
                            .as("byte %d bit %d", i, bit)
                            .isNotInstanceOf(EncryptionKeyException.class)
                            .hasMessageContaining("compress")
                            .hasMessageContaining(NAMED);
                    continue;
                }
                assertThat(read)
                        .as("byte %d bit %d: never a different document", i, bit)
                        .isEqualTo(document);
                harmless++;
            }
        }
        assertThat(harmless).as("harmless flips").isLessThan(stored.length * 8 / 50);
    }

    @Test
    void everyTruncationIsCorruptNamingWhere() {
        byte[] stored = DEFLATE.wrap(DOC);
        for (int length = 4; length < stored.length; length++) {
            assertCorrupt(Arrays.copyOf(stored, length), DEFLATE, length < 9 ? "truncated (no header)" : "truncated");
        }
        assertThat(DEFLATE.unwrap(Arrays.copyOf(stored, 3), WHERE))
                .as("too short to be recognised")
                .isEqualTo(Arrays.copyOf(stored, 3));
    }

    @Test
    void aDeclaredLengthThatLiesIsCorrupt() {
        byte[] stored = DEFLATE.wrap(DOC);
        assertCorrupt(
                withDeclaredLength(stored, DOC.length - 1),
                DEFLATE,
                "holds more than the " + (DOC.length - 1) + " bytes it declares");
        assertCorrupt(
                withDeclaredLength(stored, DOC.length + 1),
                DEFLATE,
                "holds " + DOC.length + " bytes, fewer than the " + (DOC.length + 1) + " it declares");
        assertCorrupt(withDeclaredLength(stored, 0), DEFLATE, "holds more than the 0 bytes");
        int beyondRatio = (stored.length - 9) * 1032 + 1;
        assertCorrupt(
                withDeclaredLength(stored, beyondRatio),
                DEFLATE,
                "more than its " + (stored.length - 9) + " compressed bytes can hold");
    }

    @Test
    void aHugeDeclaredLengthIsRefusedBeforeAnythingIsAllocated() {
        byte[] stored = DEFLATE.wrap(DOC);
        assertCorrupt(
                withDeclaredLength(stored, -1),
                DEFLATE,
                "declares 4294967295 bytes uncompressed, over the maximum " + "checkpoint size of 67108864 bytes");
        assertCorrupt(withDeclaredLength(stored, Integer.MAX_VALUE), DEFLATE, "declares 2147483647 bytes");
        assertThatThrownBy(() -> DEFLATE.unwrap(stored, WHERE, DOC.length - 1))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("declares " + DOC.length
                        + " bytes uncompressed, over the maximum checkpoint size of " + (DOC.length - 1) + " bytes")
                .hasMessageContaining(NAMED);
        assertThat(DEFLATE.unwrap(stored, WHERE, DOC.length)).isEqualTo(DOC);
    }

    @Test
    void aZipBombInflatesToNoMoreThanItsBoundedDeclaredLength() {
        byte[] zeros = new byte[16 << 20];
        byte[] bomb = DocumentLayers.custom()
                .compression(true)
                .compressionAlgorithm(CompressionAlgorithm.DEFLATE)
                .compressionLevel(9)
                .build()
                .wrap(zeros);
        assertThat(bomb.length).as("16 MiB of zeros").isLessThan(20_000);
        assertThat(DEFLATE.unwrap(bomb, WHERE)).hasSize(zeros.length);
        assertThatThrownBy(() -> DEFLATE.unwrap(bomb, WHERE, 1 << 20))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("over the maximum checkpoint size of 1048576 bytes");
        assertCorrupt(withDeclaredLength(bomb, 1 << 20), DEFLATE, "holds more than the 1048576 bytes it declares");
    }

    @Test
    void trailingBytesAndUnknownVersionsAreCorrupt() {
        byte[] stored = DEFLATE.wrap(DOC);
        byte[] trailing = Arrays.copyOf(stored, stored.length + 2);
        assertCorrupt(trailing, DEFLATE, "2 bytes follow the end of the compressed stream");
        byte[] version = stored.clone();
        version[4] = 9;
        assertCorrupt(
                version,
                DEFLATE,
                "compression layer version 9 is not one this library reads (1: deflate, 2: LZ4, 3: deflate against"
                        + " the record dictionary)");
        assertCorrupt(Arrays.copyOf(stored, 8), DEFLATE, "truncated (no header)");
    }

    @Test
    void aDamagedCompressedDocumentUnderAChecksumIsAChecksumMismatch() {
        var layers = DocumentLayers.custom()
                .compression(true)
                .compressionAlgorithm(CompressionAlgorithm.DEFLATE)
                .checksum(true)
                .build();
        byte[] stored = layers.wrap(DOC);
        byte[] altered = stored.clone();
        altered[40] ^= 0x01;
        assertCorrupt(altered, layers, "checksum mismatch");
    }

    @Test
    void builderArgumentsAreValidatedNamingTheBadValue() {
        for (int level : new int[] {-1, 0, 10}) {
            assertThatThrownBy(() -> DocumentLayers.custom().compressionLevel(level))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("compressionLevel")
                    .hasMessageContaining("but was " + level);
        }
        assertThatThrownBy(() -> DocumentLayers.custom().compressionMinSize(-5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("but was -5");
        var layers = DocumentLayers.custom()
                .compression(true)
                .compressionAlgorithm(CompressionAlgorithm.DEFLATE)
                .compressionLevel(Deflater.BEST_COMPRESSION)
                .compressionMinSize(0)
                .build();
        assertThat(layers.compressionLevel()).isEqualTo(9);
        assertThat(layers.compressionMinSize()).isZero();
    }

    @Test
    void toStringShowsCompression() {
        assertThat(DEFLATE.toString()).contains("compression=deflate(level 1, from 512 bytes)");
        assertThat(DocumentLayers.none().toString()).contains("compression=off");
    }

    private static byte[] withDeclaredLength(byte[] stored, int length) {
        byte[] altered = stored.clone();
        ByteBuffer.wrap(altered, 5, 4).putInt(length);
        return altered;
    }

    private static void assertCorrupt(byte[] stored, DocumentLayers layers, String problem) {
        assertThatThrownBy(() -> layers.unwrap(stored, WHERE))
                .isInstanceOf(CorruptCheckpointException.class)
                .isNotInstanceOf(EncryptionKeyException.class)
                .hasMessageContaining(problem)
                .hasMessageContaining(NAMED);
    }
}
