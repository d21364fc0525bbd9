package dev.agentpersistence.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes JSON string values the way {@link JsonGenerator#writeString(String)} does, byte for byte, but faster. The
 * generator writes characters from U+0020 to U+FFFF as their UTF-8 bytes, apart from quote and backslash, which it
 * escapes like control characters ({@code \b \t \n \f \r} by their short forms, the others as {@code \}{@code u00XX}),
 * and it escapes every surrogate. So when a text holds no surrogate, its UTF-8 form from the JDK, with those few bytes
 * escaped the same way, is exactly what the generator writes: the form is checked eight bytes at a time, its plain runs
 * are copied in bulk, and a text with no byte to escape is written as it is. A text with surrogates goes to the
 * generator's own {@code writeString}.
 */
final class JsonStrings {
    /**
     * Shorter strings go to the generator: measured on ASCII text, its own loop was faster at 24 characters and the
     * bulk copy from about 40.
     */
    static final int SHORTEST_COPIED = 40;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    /** What the UTF-8 form of a text needs before it is what the generator writes. */
    enum Form {
        /** Nothing: it is written as it is. */
        PLAIN,
        /** Quotes, backslashes or control characters escaped. */
        ESCAPES,
        /** The generator: the text holds surrogates, which it escapes one by one. */
        SURROGATES
    }

    private JsonStrings() {}

    /**
     * Writes {@code text} as a JSON string value; the same output as {@code g.writeString(text)}. Only a generator
     * writing UTF-8 bytes takes the bulk copy; any other (characters, a token buffer) gets {@code writeString}.
     */
    static void write(JsonGenerator g, String text) throws IOException {
        if (text != null && text.length() >= SHORTEST_COPIED && g instanceof UTF8JsonGenerator) {
            byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            switch (form(utf8, text)) {
                case PLAIN -> g.writeRawUTF8String(utf8, 0, utf8.length);
                case ESCAPES -> writeEscaped(g, utf8);
                case SURROGATES -> g.writeString(text);
            }
            return;
        }
        g.writeString(text);
    }

    /** Writes a field with a string value; the same output as {@code g.writeStringField(name, text)}. */
    static void writeField(JsonGenerator g, String name, String text) throws IOException {
        g.writeFieldName(name);
        write(g, text);
    }

    /**
     * What {@code utf8}, the UTF-8 form of {@code text}, needs: surrogates show as lead bytes of four-byte sequences
     * (pairs) or as {@code '?'} (the encoder's replacement of an unpaired one; a {@code '?'} therefore makes this scan
     * the text for surrogates), escapes as bytes below 0x20, quotes and backslashes.
     */
    static Form form(byte[] utf8, String text) {
        int i = 0;
        long escaped = 0;
        long fourByte = 0;
        long question = 0;
        for (int end = utf8.length - Long.BYTES; i <= end; i += Long.BYTES) {
            long word = (long) LONGS.get(utf8, i);
            escaped |= escapedByte(word);
            fourByte |= word & (word << 1) & (word << 2) & (word << 3) & HIGH_BITS; // 0xF0 and above
            question |= zeroByte(word ^ 0x3F3F3F3F3F3F3F3FL);
        }
        for (; i < utf8.length; i++) {
            int b = utf8[i] & 0xFF;
            escaped |= needsEscape(b) ? 1 : 0;
            fourByte |= b >= 0xF0 ? 1 : 0;
            question |= b == '?' ? 1 : 0;
        }
        if (fourByte != 0 || (question != 0 && hasSurrogate(text))) {
            return Form.SURROGATES;
        }
        return escaped == 0 ? Form.PLAIN : Form.ESCAPES;
    }

    /** Writes {@code utf8} with its quotes, backslashes and control characters escaped as the generator does. */
    private static void writeEscaped(JsonGenerator g, byte[] utf8) throws IOException {
        byte[] out = new byte[utf8.length + 64];
        int length = 0;
        int copied = 0;
        int i = 0;
        while (i < utf8.length) {
            if (i <= utf8.length - Long.BYTES && escapedByte((long) LONGS.get(utf8, i)) == 0) {
                i += Long.BYTES; // a plain word
                continue;
            }
            int b = utf8[i] & 0xFF;
            if (!needsEscape(b)) {
                i++;
                continue;
            }
            int needed = length + (i - copied) + 6 + (utf8.length - i);
            if (needed > out.length) {
                out = Arrays.copyOf(out, Math.max(needed, out.length * 2));
            }
            System.arraycopy(utf8, copied, out, length, i - copied);
            length += i - copied;
            length = escape(out, length, b);
            copied = ++i;
        }
        System.arraycopy(utf8, copied, out, length, utf8.length - copied);
        length += utf8.length - copied;
        g.writeRawUTF8String(out, 0, length);
    }

    /** Writes the escape of {@code b} at {@code at}; returns the position after it. */
    private static int escape(byte[] out, int at, int b) {
        out[at++] = '\\';
        byte shortForm = switch (b) {
            case '"' -> '"';
            case '\\' -> '\\';
            case '\b' -> 'b';
            case '\t' -> 't';
            case '\n' -> 'n';
            case '\f' -> 'f';
            case '\r' -> 'r';
            default -> 0;
        };
        if (shortForm != 0) {
            out[at++] = shortForm;
            return at;
        }
        out[at++] = 'u';
        out[at++] = '0';
        out[at++] = '0';
        out[at++] = HEX[b >> 4];
        out[at++] = HEX[b & 0xF];
        return at;
    }

    private static boolean needsEscape(int b) {
        return b < 0x20 || b == '"' || b == '\\';
    }

    /** Non-zero when a byte of {@code word} is below 0x20, a quote or a backslash. */
    private static long escapedByte(long word) {
        return below0x20(word) | zeroByte(word ^ 0x2222222222222222L) | zeroByte(word ^ 0x5C5C5C5C5C5C5C5CL);
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
     * Non-zero when a byte of {@code word} is below 0x20, unsigned (exact for the word as a whole: only such a byte
     * borrows, and a byte of 0x80 or above never sets its own flag).
     */
    private static long below0x20(long word) {
        return (word - 0x2020202020202020L) & ~word & HIGH_BITS;
    }
}
