package dev.agentpersistence.history.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class HistoryDescriptorTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void writesTheTextJacksonWritesAndReadsItBack() {
        var random = new Random(20_261_202L);
        for (int round = 0; round < 500; round++) {
            var segments = new ArrayList<SegmentId>();
            int end = 0;
            for (int i = random.nextInt(6); i > 0; i--) {
                int next = end + 16 * (1 + random.nextInt(300));
                segments.add(SegmentId.of(new SegmentSpan(end, next), bytes(random, 32)));
                end = next;
            }
            var descriptor =
                    new HistoryDescriptor(end + random.nextInt(16), 16, segments, HEX.formatHex(bytes(random, 32)));

            assertThat(descriptor.toJson()).isEqualTo(descriptor.jacksonJson());
            assertThat(HistoryDescriptor.parse(descriptor.toJson())).isEqualTo(descriptor);
        }
    }

    @Test
    void aDigestThatIsNotHexIsWrittenAsJacksonEscapesIt() {
        var descriptor = new HistoryDescriptor(3, 16, List.of(), "not \"hex\"\n");

        assertThat(descriptor.toJson()).isEqualTo(descriptor.jacksonJson()).contains("\\\"hex\\\"\\n");
    }

    private static byte[] bytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }
}
