package dev.agentpersistence.codec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class JsonStringsTest {
    private static final JsonFactory FACTORY = new JsonFactory();
    /** The surrogates at the end of the random texts' alphabet. */
    private static final int SURROGATES = 4;

    private static final String PROSE = "The agent read the report and wrote a summary of its findings. ";

    static List<String> texts() {
        var texts = new ArrayList<String>();
        texts.add(PROSE);
        texts.add(PROSE.repeat(20));
        texts.add("short");
        texts.add("");
        texts.add(PROSE.substring(0, JsonStrings.SHORTEST_COPIED - 1));
        texts.add(PROSE.substring(0, JsonStrings.SHORTEST_COPIED));
        for (String inserted : List.of(
                "\"",
                "\\",
                "\n",
                "\t",
                "\u0000",
                "\u001f",
                "\u007f",
                "?",
                "é",
                "日本語の文章",
                "\uD83D\uDE00",
                "\uD83D",
                "\uDE00",
                "\u0080",
                "\u07ff",
                "\u0800",
                "\uffff",
                "</script>")) {
            for (int at : new int[] {0, 7, 8, 31, PROSE.length()}) {
                texts.add(PROSE.substring(0, at) + inserted + PROSE.substring(at));
            }
        }
        texts.add("これは日本語で書かれたメッセージです。エージェントが報告書を読みました。");
        texts.add("これは日本語で書かれたメッセージですか?エージェントが報告書を読みました。");
        texts.add("Is this a question? It is, and it has no surrogate.");
        texts.add("A question? With an unpaired surrogate \uD800 after it, long enough.");
        return texts;
    }

    @ParameterizedTest
    @MethodSource("texts")
    void writesWhatTheGeneratorWrites(String text) throws IOException {
        assertThat(written(g -> JsonStrings.write(g, text))).isEqualTo(written(g -> g.writeString(text)));
    }

    @Test
    void randomTextsAreWrittenAsTheGeneratorWritesThem() throws IOException {
        var random = new SplittableRandom(20_261_127L);
        char[] alphabet = ("abcdefghij ABC.,?!\"\\/\n\t\u0001\u001f\u007f\u0080éß\u07ff\u0800日本語\uffff"
                        + "\uD83D\uDE00\uD800\uDFFF")
                .toCharArray();
        for (int n = 0; n < 20_000; n++) {
            var text = new StringBuilder();
            int length = random.nextInt(80);
            int kind = random.nextInt(3); // plain prose, the whole alphabet, or all but its surrogates
            int letters = kind == 2 ? alphabet.length - SURROGATES : alphabet.length;
            for (int i = 0; i < length; i++) {
                text.append(kind == 0 ? (char) ('a' + random.nextInt(26)) : alphabet[random.nextInt(letters)]);
            }
            String value = text.toString();
            assertThat(written(g -> JsonStrings.write(g, value)))
                    .as("text %s", value)
                    .isEqualTo(written(g -> g.writeString(value)));
        }
    }

    @Test
    void aFieldIsWrittenAsTheGeneratorWritesIt() throws IOException {
        String text = PROSE.repeat(3);
        assertThat(written(g -> {
                    g.writeStartObject();
                    JsonStrings.writeField(g, "content", text);
                    g.writeEndObject();
                }))
                .isEqualTo(written(g -> {
                    g.writeStartObject();
                    g.writeStringField("content", text);
                    g.writeEndObject();
                }));
    }

    @Test
    void generatorsThatDoNotWriteUtf8BytesGetTheTextAsIs() throws IOException {
        String text = PROSE.repeat(2);
        var characters = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(characters)) {
            JsonStrings.write(g, text);
        }
        assertThat(characters.toString()).isEqualTo("\"" + text + "\"");
        try (var tokens = new TokenBuffer(new ObjectMapper(), false)) {
            JsonStrings.write(tokens, text);
            try (var parser = tokens.asParser()) {
                assertThat(parser.nextToken()).isEqualTo(JsonToken.VALUE_STRING);
                assertThat(parser.getText()).isEqualTo(text);
            }
        }
    }

    @Test
    void nullIsWrittenAsNull() throws IOException {
        assertThat(new String(written(g -> JsonStrings.write(g, null)), StandardCharsets.UTF_8))
                .isEqualTo("null");
    }

    @Test
    void theCheckFindsEveryByteToEscapeAndEverySurrogate() {
        String plain = PROSE.repeat(2);
        assertThat(form(plain)).isEqualTo(JsonStrings.Form.PLAIN);
        for (int at = 0; at < 40; at++) {
            for (String escaped : List.of("\"", "\\", "\u0000", "\u001f", "\n")) {
                assertThat(form(plain.substring(0, at) + escaped + plain.substring(at)))
                        .as("%s at %d", escaped, at)
                        .isEqualTo(JsonStrings.Form.ESCAPES);
            }
            for (String surrogates : List.of("\uD83D\uDE00", "\uDBFF", "\uDBFF\"")) {
                assertThat(form(plain.substring(0, at) + surrogates + plain.substring(at)))
                        .as("%s at %d", surrogates, at)
                        .isEqualTo(JsonStrings.Form.SURROGATES);
            }
            assertThat(form(plain.substring(0, at) + "?" + plain.substring(at))).isEqualTo(JsonStrings.Form.PLAIN);
        }
    }

    @Test
    void textsWithManyEscapesAreWrittenAsTheGeneratorWritesThem() throws IOException {
        for (String text : List.of(
                "\"".repeat(100),
                "\n\t\r\b\f\u0001\u001f\\\"".repeat(20),
                PROSE + "\n\n" + PROSE + "\n" + "\"quoted\" and C:\\path\\to\\file\u0007",
                "é\n".repeat(50))) {
            assertThat(written(g -> JsonStrings.write(g, text)))
                    .as("text %s", text)
                    .isEqualTo(written(g -> g.writeString(text)));
        }
    }

    private static JsonStrings.Form form(String text) {
        return JsonStrings.form(text.getBytes(StandardCharsets.UTF_8), text);
    }

    private interface Writing {
        void write(JsonGenerator g) throws IOException;
    }

    private static byte[] written(Writing writing) throws IOException {
        var out = new ByteArrayOutputStream();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            writing.write(g);
        }
        return out.toByteArray();
    }
}
