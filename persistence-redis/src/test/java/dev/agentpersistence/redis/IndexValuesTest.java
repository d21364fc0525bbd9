package dev.agentpersistence.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.redis.internal.IndexValues;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The index encodings order like the values they stand for. */
class IndexValuesTest {

    @Test
    void paddedVersionsSortLikeTheirNumbers() {
        var versions = new ArrayList<>(
                List.of(0L, 1L, 9L, 10L, 99L, 1L << 53, (1L << 53) + 1, Long.MAX_VALUE - 1, Long.MAX_VALUE));
        for (int i = 0; i + 1 < versions.size(); i++) {
            String a = IndexValues.version(versions.get(i));
            String b = IndexValues.version(versions.get(i + 1));
            assertThat(a).hasSize(19).isLessThan(b);
            assertThat(IndexValues.parseVersion(a)).isEqualTo(versions.get(i));
        }
    }

    @Test
    void instantKeysAndScoresFollowTime() {
        var random = new Random(7);
        var instants = new ArrayList<>(List.of(
                Instant.MIN,
                Instant.MIN.plusNanos(1),
                Instant.EPOCH.minusNanos(1),
                Instant.EPOCH,
                Instant.EPOCH.plusNanos(1),
                Instant.parse("2026-01-01T00:00:00.000000001Z"),
                Instant.MAX));
        for (int i = 0; i < 1000; i++) {
            instants.add(Instant.ofEpochSecond(random.nextLong() % 4_000_000_000L, random.nextInt(1_000_000_000)));
        }
        instants.sort(null);
        for (int i = 0; i + 1 < instants.size(); i++) {
            Instant a = instants.get(i);
            Instant b = instants.get(i + 1);
            assertThat(IndexValues.instantKey(a)).hasSize(26);
            if (a.isBefore(b)) {
                assertThat(IndexValues.instantKey(a)).isLessThan(IndexValues.instantKey(b));
            }
            assertThat(Double.parseDouble(FirstLayoutWriter.instantScore(a)))
                    .isLessThanOrEqualTo(Double.parseDouble(FirstLayoutWriter.instantScore(b)));
        }
        assertThat(FirstLayoutWriter.instantScore(Instant.ofEpochMilli(1_700_000_000_123L)))
                .isEqualTo("1.700000000123E12");
    }
}
