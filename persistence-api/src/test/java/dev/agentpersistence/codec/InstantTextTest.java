package dev.agentpersistence.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class InstantTextTest {
    private static final long FIRST = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
    private static final long LAST = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();

    @Test
    void writesWhatToStringWritesAtTheEdgesOfEveryFieldAndFraction() {
        long[] seconds = {
            FIRST,
            FIRST - 1,
            FIRST + 1,
            LAST,
            LAST + 1,
            LAST - 1,
            0,
            -1,
            1,
            59,
            60,
            3_599,
            86_399,
            951_782_400 /* 2000-02-29 */,
            -2_203_891_200L /* 1900-03-01 */,
            Instant.MIN.getEpochSecond(),
            Instant.MAX.getEpochSecond()
        };
        int[] nanos = {
            0,
            1,
            9,
            10,
            999,
            1_000,
            1_001,
            100_000,
            999_999,
            1_000_000,
            1_000_001,
            10_000_000,
            100_000_000,
            120_000_000,
            123_456_789,
            999_000_000,
            999_999_000,
            999_999_999
        };
        for (long second : seconds) {
            for (int nano : nanos) {
                Instant instant = Instant.ofEpochSecond(second, nano);
                assertThat(InstantText.of(instant)).as("%s", instant).isEqualTo(instant.toString());
            }
        }
    }

    @Test
    void writesWhatToStringWritesForRandomInstantsOfEveryYear() {
        var random = new SplittableRandom(7);
        for (int i = 0; i < 200_000; i++) {
            long second = random.nextLong(FIRST - 86_400L * 366 * 50, LAST + 86_400L * 366 * 50);
            int nano = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1_000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1_000;
                default -> random.nextInt(1_000_000_000);
            };
            Instant instant = Instant.ofEpochSecond(second, nano);
            assertThat(InstantText.of(instant)).isEqualTo(instant.toString());
        }
    }

    @Test
    void writesNowAsToStringDoes() {
        Instant now = Instant.now();
        assertThat(InstantText.of(now)).isEqualTo(now.toString());
    }
}
