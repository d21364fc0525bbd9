package dev.agentpersistence.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.Message;
import dev.agentpersistence.history.internal.SegmentCodec;
import dev.agentpersistence.spi.ProviderConfig;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** History segments are written through the provider's codec, so they are compressed like checkpoints. */
class SegmentCompressionTest {
    private static final byte[] MAGIC = {(byte) 0xA9, 'A', 'P', 'Z'};

    private static List<Message> block(int size) {
        var messages = new ArrayList<Message>();
        for (int i = 0; i < size; i++) {
            String text = DocumentLayersCompressionTest.prose(i, 200);
            messages.add(i % 2 == 0 ? Message.user(text) : Message.assistant(text));
        }
        return messages;
    }

    @Test
    void segmentsWrittenWithTheSettingsCodecAreCompressedUnderTheChecksum() {
        var segments = new SegmentCodec(CodecSettings.codec(ProviderConfig.empty()));
        var messages = block(32); // 32 messages of 200 characters: above the default threshold
        byte[] stored = segments.encode("agent-1", "seg-1", messages);
        int json =
                new SegmentCodec(LayeredCheckpointCodec.custom().build()).encode("agent-1", "seg-1", messages).length;
        assertThat(new String(stored, 0, 8, StandardCharsets.US_ASCII)).isEqualTo("#crc32c:");
        assertThat(Arrays.copyOfRange(stored, 17, 21)).isEqualTo(MAGIC);
        assertThat(stored.length)
                .as("%d bytes stored for %d of JSON", stored.length, json)
                .isLessThan(json * 2 / 3);
        assertThat(segments.decode("agent-1", "seg-1", stored, "segment seg-1")).isEqualTo(messages);
        assertThat(new SegmentCodec(LayeredCheckpointCodec.custom().build())
                        .decode(
                                "agent-1",
                                "seg-1",
                                DocumentLayers.none().unwrap(stored, new CheckpointLocation("agent-1", "seg-1", "x")),
                                "x"))
                .isEqualTo(messages);
    }

    @Test
    void segmentsWrittenWithoutCompressionAreStillRead() {
        var messages = block(16);
        byte[] plain = new SegmentCodec(
                        CodecSettings.codec(ProviderConfig.of(Map.of(CodecSettings.COMPRESSION.key(), "none"))))
                .encode("agent-1", "seg-1", messages);
        assertThat(Arrays.copyOfRange(plain, 17, 18)).containsExactly('{');
        assertThat(new SegmentCodec(CodecSettings.codec(ProviderConfig.empty())).decode("agent-1", "seg-1", plain, "x"))
                .isEqualTo(messages);
    }
}
