package dev.agentpersistence.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class SortableDigitsTest {
    @Test
    void padsToTheWidthLikeStringFormat() {
        for (long value : new long[] {0, 7, 42, 999_999_999, 1_000_000_000, Long.MAX_VALUE}) {
            assertThat(SortableDigits.of(value, SortableDigits.LONG_DIGITS))
                    .isEqualTo(String.format(Locale.ROOT, "%019d", value));
        }
        assertThat(SortableDigits.of(123_456_789, 9)).isEqualTo("123456789");
        assertThat(SortableDigits.of(5, 9)).isEqualTo("000000005");
    }

    @Test
    void textsSortLikeTheNumbers() {
        var values = List.of(0L, 9L, 10L, 99L, 100L, 1L << 53, (1L << 53) + 1, Long.MAX_VALUE - 1, Long.MAX_VALUE);
        var texts = new ArrayList<String>();
        values.forEach(value -> texts.add(SortableDigits.of(value, SortableDigits.LONG_DIGITS)));
        assertThat(texts).isSorted();
    }

    @Test
    void refusesNegativeNumbersAndNumbersWiderThanTheWidth() {
        assertThatThrownBy(() -> SortableDigits.of(-1, 19))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> SortableDigits.of(1_000, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("more than 3 digits");
    }
}
