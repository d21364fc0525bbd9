package dev.agentpersistence.backend;

/**
 * Non-negative numbers written as zero-padded decimals of a fixed width, so that comparing the texts byte by byte
 * orders them like the numbers (a file name, an object key, a sorted-set member). Without {@code String.format}, which
 * costs more than the rest of a small key's work.
 */
public final class SortableDigits {
    /** The digits of {@link Long#MAX_VALUE}: every non-negative {@code long} fits this width. */
    public static final int LONG_DIGITS = 19;

    private SortableDigits() {}

    /**
     * {@code value} as exactly {@code width} decimal digits, zeros in front: {@code of(42, 5)} is {@code "00042"}.
     *
     * @throws IllegalArgumentException when {@code value} is negative or has more than {@code width} digits
     */
    public static String of(long value, int width) {
        if (value < 0) {
            throw new IllegalArgumentException("value must be >= 0 but was " + value);
        }
        String digits = Long.toString(value);
        if (digits.length() > width) {
            throw new IllegalArgumentException(value + " has more than " + width + " digits");
        }
        return digits.length() == width ? digits : "0".repeat(width - digits.length()) + digits;
    }
}
