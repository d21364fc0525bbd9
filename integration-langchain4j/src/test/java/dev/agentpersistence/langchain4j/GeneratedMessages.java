package dev.agentpersistence.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.audio.Audio;
import dev.langchain4j.data.image.Image;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.AudioContent;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.CustomMessage;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.PdfFileContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.message.VideoContent;
import dev.langchain4j.data.pdf.PdfFile;
import dev.langchain4j.data.video.Video;
import java.net.URI;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** jqwik generators of every LangChain4j message type, with every optional field present or absent. */
final class GeneratedMessages {
    private GeneratedMessages() {}

    static Arbitrary<ChatMessage> messages() {
        return Arbitraries.oneOf(system(), user(), ai(), toolResult(), custom());
    }

    static Arbitrary<String> text() {
        return Arbitraries.strings()
                .alpha()
                .numeric()
                .withChars(" \n\t\"'{}[]:,é日本ß€")
                .ofMaxLength(40);
    }

    private static Arbitrary<String> nonBlank() {
        return Arbitraries.strings()
                .alpha()
                .numeric()
                .withChars(" é日")
                .ofMinLength(1)
                .ofMaxLength(20)
                .filter(s -> !s.isBlank());
    }

    private static <T> Arbitrary<T> orNull(Arbitrary<T> values) {
        return values.injectNull(0.3);
    }

    private static Arbitrary<ChatMessage> system() {
        return nonBlank().map(SystemMessage::from);
    }

    private static Arbitrary<ChatMessage> user() {
        return Combinators.combine(orNull(nonBlank()), contents(), attributes())
                .as((name, contents, attributes) -> UserMessage.builder()
                        .name(name)
                        .contents(contents)
                        .attributes(attributes)
                        .build());
    }

    private static Arbitrary<ChatMessage> ai() {
        return Combinators.combine(
                        orNull(text()), orNull(text()), requests().list().ofMaxSize(3), attributes())
                .as((text, thinking, requests, attributes) -> AiMessage.builder()
                        .text(text)
                        .thinking(thinking)
                        .toolExecutionRequests(requests)
                        .attributes(attributes)
                        .build());
    }

    private static Arbitrary<ChatMessage> toolResult() {
        var single = Combinators.combine(
                        orNull(nonBlank()),
                        orNull(nonBlank()),
                        text(),
                        orNull(Arbitraries.of(true, false)),
                        attributes())
                .as((id, name, text, error, attributes) -> (ChatMessage) ToolExecutionResultMessage.builder()
                        .id(id)
                        .toolName(name)
                        .text(text)
                        .isError(error)
                        .attributes(attributes)
                        .build());
        var multi = Combinators.combine(nonBlank(), nonBlank(), contents())
                .as((id, name, contents) -> (ChatMessage) ToolExecutionResultMessage.builder()
                        .id(id)
                        .toolName(name)
                        .contents(contents)
                        .build());
        return Arbitraries.oneOf(single, multi);
    }

    private static Arbitrary<ChatMessage> custom() {
        return attributes().map(CustomMessage::from);
    }

    private static Arbitrary<ToolExecutionRequest> requests() {
        var json = Arbitraries.of(
                "{\"name\":\"ada\"}",
                "{\"name\": \"ada\", \"age\": 36}",
                "{}",
                "[1,2.50,3]",
                "not json",
                "",
                "{\"nested\":{\"a\":[true,null]}}");
        return Combinators.combine(orNull(nonBlank()), orNull(nonBlank()), orNull(json))
                .as((id, name, arguments) -> ToolExecutionRequest.builder()
                        .id(id)
                        .name(name)
                        .arguments(arguments)
                        .build());
    }

    private static Arbitrary<List<Content>> contents() {
        return Arbitraries.oneOf(text().map(TextContent::from), image(), audio(), video(), pdf())
                .list()
                .ofMinSize(1)
                .ofMaxSize(4);
    }

    private static Arbitrary<byte[]> bytes() {
        return Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(64);
    }

    private static Arbitrary<String> base64() {
        return Arbitraries.oneOf(
                bytes().map(Base64.getEncoder()::encodeToString),
                Arbitraries.of("not base64!", "AAEC\n", "AAE")); // not the standard encoding of any bytes
    }

    private static Arbitrary<URI> url() {
        return Arbitraries.of(
                        "https://example.com/a.png",
                        "s3://bucket/key with space".replace(" ", "%20"),
                        "file:///tmp/x.pdf",
                        "https://example.com/q?x=1&y=%C3%A9")
                .map(URI::create);
    }

    private static Arbitrary<String> mimeType() {
        return Arbitraries.of("image/png", "audio/wav", "video/mp4", "application/pdf", "application/x-custom");
    }

    private static Arbitrary<Content> image() {
        var image = Combinators.combine(orNull(url()), orNull(base64()), orNull(mimeType()), orNull(text()))
                .as((url, data, mime, prompt) -> Image.builder()
                        .url(url)
                        .base64Data(data)
                        .mimeType(mime)
                        .revisedPrompt(prompt)
                        .build());
        return Combinators.combine(image, Arbitraries.of(ImageContent.DetailLevel.class))
                .as((i, detail) -> (Content) ImageContent.from(i, detail));
    }

    private static Arbitrary<Content> audio() {
        return Combinators.combine(orNull(url()), orNull(bytes()), orNull(base64()), orNull(mimeType()))
                .as((url, binary, data, mime) -> (Content) AudioContent.from(Audio.builder()
                        .url(url)
                        .binaryData(binary)
                        .base64Data(data)
                        .mimeType(mime)
                        .build()));
    }

    private static Arbitrary<Content> video() {
        return Combinators.combine(orNull(url()), orNull(base64()), orNull(mimeType()))
                .as((url, data, mime) -> (Content) VideoContent.from(
                        Video.builder().url(url).base64Data(data).mimeType(mime).build()));
    }

    private static Arbitrary<Content> pdf() {
        return Combinators.combine(orNull(url()), orNull(base64()), orNull(mimeType()))
                .as((url, data, mime) -> (Content) PdfFileContent.from(PdfFile.builder()
                        .url(url)
                        .base64Data(data)
                        .mimeType(mime)
                        .build()));
    }

    private static Arbitrary<Map<String, Object>> attributes() {
        Arbitrary<Object> scalar = Arbitraries.oneOf(
                text().map(o -> (Object) o),
                Arbitraries.integers().map(o -> (Object) o),
                Arbitraries.longs().map(o -> (Object) o),
                Arbitraries.doubles().map(o -> (Object) o),
                Arbitraries.floats().map(o -> (Object) o),
                Arbitraries.of(true, false).map(o -> (Object) o),
                Arbitraries.bigIntegers().map(o -> (Object) o),
                Arbitraries.bigDecimals().map(o -> (Object) o),
                Arbitraries.just((Object) null),
                Arbitraries.just((Object) List.of(Image.builder()
                        .url("https://example.com/g.png")
                        .revisedPrompt("a cat")
                        .build())));
        Arbitrary<Object> nested = Arbitraries.oneOf(
                scalar,
                scalar.list().ofMaxSize(3).map(o -> (Object) o),
                Arbitraries.maps(nonBlank(), scalar).ofMaxSize(2).map(o -> (Object) new LinkedHashMap<>(o)));
        return Arbitraries.maps(nonBlank(), nested).ofMaxSize(3).map(LinkedHashMap::new);
    }
}
