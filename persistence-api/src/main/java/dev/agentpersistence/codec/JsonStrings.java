package dev.agentpersistence.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Writes JSON string values the way {@link JsonGenerator#writeString(String)} does, byte for byte, but
 * faster for text that needs no escape. The generator writes characters from U+0020 to U+FFFF as
 * their UTF-8 bytes, apart from quote and backslash, and escapes control characters and every
 * surrogate. So when the UTF-8 form of a text holds no control character, quote, backslash or
 * four-byte sequence (a surrogate pair), and the text no unpaired surrogate, that form is exactly
 * what the generator writes: it is encoded by the JDK in bulk, checked eight bytes at a time and
 * copied. Any other text goes to the generator's own {@code writeString}.
 */
final class JsonStrings {
    /**
     * Shorter strings go to the generator: measured on ASCII text, its own loop was faster at 24
     * characters and the bulk copy from about 40.
     */
    static final int SHORTEST_COPIED = 40;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;

    private JsonStrings() {
    }

    /**
     * Writes {@code text} as a JSON string value; the same output as {@code g.writeString(text)}. Only
     * a generator writing UTF-8 bytes takes the bulk copy; any other (characters, a token buffer) gets
     * {@code writeString}.
     */
    static void write(JsonGenerator g, String text) throws IOException {
        if (text != null && text.length() >= SHORTEST_COPIED && g instanceof UTF8JsonGenerator) {
            byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            if (isPlain(utf8, text)) {
                g.writeRawUTF8String(utf8, 0, utf8.length);
                return;
            }
        }
        g.writeString(text);
    }

    /** Writes a field with a string value; the same output as {@code g.writeStringField(name, text)}. */
    static void writeField(JsonGenerator g, String name, String text) throws IOException {
        g.writeFieldName(name);
        write(g, text);
    }

    /**
     * Whether {@code utf8}, the UTF-8 form of {@code text}, is what the generator writes for it: no
     * byte below 0x20, no quote, no backslash, no lead byte of a four-byte sequence, and (when the form
     * holds a {@code '?'}, which the encoder also puts for an unpaired surrogate) no surrogate in the text.
     */
    static boolean isPlain(byte[] utf8, String text) {
        int i = 0;
        long escaped = 0;
        long question = 0;
        for (int end = utf8.length - Long.BYTES; i <= end; i += Long.BYTES) {
            long word = (long) LONGS.get(utf8, i);
            escaped |= below0x20(word) | zeroByte(word ^ 0x2222222222222222L) // quote
                    | zeroByte(word ^ 0x5C5C5C5C5C5C5C5CL) // backslash
                    | (word & (word << 1) & (word << 2) & (word << 3) & HIGH_BITS); // 0xF0 and above
            question |= zeroByte(word ^ 0x3F3F3F3F3F3F3F3FL);
        }
        if (escaped != 0) {
            return false;
        }
        for (; i < utf8.length; i++) {
            int b = utf8[i] & 0xFF;
            if (b < 0x20 || b == '"' || b == '\\' || b >= 0xF0) {
                return false;
            }
            question |= b == '?' ? 1 : 0;
        }
        return question == 0 || !hasSurrogate(text);
    }

    private static boolean hasSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isSurrogate(text.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /** Non-zero when a byte of {@code word} is zero (exact for the word as a whole). */
    private static long zeroByte(long word) {
        return (word - ONES) & ~word & HIGH_BITS;
    }

    /**
     * Non-zero when a byte of {@code word} is below 0x20, unsigned (exact for the word as a whole: only
     * such a byte borrows, and a byte of 0x80 or above never sets its own flag).
     */
    private static long below0x20(long word) {
        return (word - 0x2020202020202020L) & ~word & HIGH_BITS;
    }
}
