package dev.agentpersistence.langchain4j.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.ContentPart.MediaKind;
import dev.agentpersistence.langchain4j.UnsupportedMessageException;
import dev.langchain4j.data.audio.Audio;
import dev.langchain4j.data.image.Image;
import dev.langchain4j.data.message.AudioContent;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.ImageContent.DetailLevel;
import dev.langchain4j.data.message.PdfFileContent;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.VideoContent;
import dev.langchain4j.data.pdf.PdfFile;
import dev.langchain4j.data.video.Video;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * LangChain4j contents as {@link ContentPart}s and back. Text is a text part; image, audio, video and PDF are media
 * parts ({@code FILE} for PDF) holding the URL, or the bytes that the base64 data decodes to. What a part has no field
 * for is kept per part in the extras ({@link LangChain4jKeys#PARTS}), written only when present: an image's detail
 * level (other than {@code LOW}) and revised prompt; the base64 text itself when it is not the standard encoding of its
 * bytes; a URL next to data; a missing MIME type next to data; audio given as raw bytes.
 */
public final class LangChain4jContents {
    private static final String OCTET_STREAM = "application/octet-stream";

    /** Where a medium comes from, as LangChain4j holds it; any field may be {@code null}. */
    private record Source(URI url, byte[] binary, String base64, String mimeType) {}

    private LangChain4jContents() {}

    /**
     * The parts of {@code contents}; their extras go into {@code extras}, keyed by part index.
     *
     * @throws UnsupportedMessageException for a content type this module does not know
     */
    public static List<ContentPart> toParts(List<Content> contents, ObjectNode extras, String where) {
        var parts = new ArrayList<ContentPart>(contents.size());
        for (int i = 0; i < contents.size(); i++) {
            var extra = JsonNodeFactory.instance.objectNode();
            parts.add(toPart(contents.get(i), extra, where));
            if (!extra.isEmpty()) {
                extras.set(Integer.toString(i), extra);
            }
        }
        return parts;
    }

    /** The contents of {@code parts}, with the extras {@link #toParts} wrote ({@code null}: none). */
    public static List<Content> toContents(List<ContentPart> parts, JsonNode extras) {
        var contents = new ArrayList<Content>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            JsonNode extra = extras == null ? null : extras.get(Integer.toString(i));
            contents.add(toContent(parts.get(i), extra == null ? JsonNodeFactory.instance.objectNode() : extra));
        }
        return contents;
    }

    private static ContentPart toPart(Content content, ObjectNode extra, String where) {
        if (content instanceof TextContent text) {
            return ContentPart.text(text.text());
        }
        if (content instanceof ImageContent imageContent) {
            Image image = imageContent.image();
            if (imageContent.detailLevel() != DetailLevel.LOW) {
                extra.put("detail", imageContent.detailLevel().name());
            }
            if (image.revisedPrompt() != null) {
                extra.put("revisedPrompt", image.revisedPrompt());
            }
            return media(MediaKind.IMAGE, new Source(image.url(), null, image.base64Data(), image.mimeType()), extra);
        }
        if (content instanceof AudioContent audioContent) {
            Audio audio = audioContent.audio();
            return media(
                    MediaKind.AUDIO,
                    new Source(audio.url(), audio.binaryData(), audio.base64Data(), audio.mimeType()),
                    extra);
        }
        if (content instanceof VideoContent videoContent) {
            Video video = videoContent.video();
            return media(MediaKind.VIDEO, new Source(video.url(), null, video.base64Data(), video.mimeType()), extra);
        }
        if (content instanceof PdfFileContent pdfContent) {
            PdfFile pdf = pdfContent.pdfFile();
            return media(MediaKind.FILE, new Source(pdf.url(), null, pdf.base64Data(), pdf.mimeType()), extra);
        }
        throw new UnsupportedMessageException(where + ": content type "
                + content.getClass().getName() + " is not supported (text, image, audio, video and PDF are)");
    }

    private static ContentPart.Media media(MediaKind kind, Source source, ObjectNode extra) {
        byte[] data = source.binary() != null ? source.binary() : ContentPart.canonicalBase64(source.base64());
        if (source.binary() != null) {
            extra.put("binary", true);
        }
        if (source.base64() != null && (source.binary() != null || data == null)) {
            extra.put("base64", source.base64());
        }
        if (data != null) {
            if (source.mimeType() == null) {
                extra.put("mimeAbsent", true);
            }
            if (source.url() != null) {
                extra.put("url", source.url().toString());
            }
            return ContentPart.bytes(kind, data, source.mimeType() == null ? OCTET_STREAM : source.mimeType());
        }
        if (source.url() != null) {
            return ContentPart.url(kind, source.url().toString(), source.mimeType());
        }
        extra.put("noUrl", true);
        return ContentPart.url(kind, "", source.mimeType());
    }

    private static Content toContent(ContentPart part, JsonNode extra) {
        if (part instanceof ContentPart.Text text) {
            return TextContent.from(text.text());
        }
        var media = (ContentPart.Media) part;
        Source source = source(media, extra);
        return switch (media.kind()) {
            case IMAGE ->
                ImageContent.from(
                        Image.builder()
                                .url(source.url())
                                .base64Data(source.base64())
                                .mimeType(source.mimeType())
                                .revisedPrompt(text(extra, "revisedPrompt"))
                                .build(),
                        extra.has("detail")
                                ? DetailLevel.valueOf(extra.get("detail").asText())
                                : DetailLevel.LOW);
            case AUDIO ->
                AudioContent.from(Audio.builder()
                        .url(source.url())
                        .binaryData(source.binary())
                        .base64Data(source.base64())
                        .mimeType(source.mimeType())
                        .build());
            case VIDEO ->
                VideoContent.from(Video.builder()
                        .url(source.url())
                        .base64Data(source.base64())
                        .mimeType(source.mimeType())
                        .build());
            case FILE ->
                PdfFileContent.from(PdfFile.builder()
                        .url(source.url())
                        .base64Data(source.base64())
                        .mimeType(source.mimeType())
                        .build());
        };
    }

    private static Source source(ContentPart.Media media, JsonNode extra) {
        URI url;
        if (media.url() != null) {
            url = extra.has("noUrl") ? null : URI.create(media.url());
        } else {
            url = extra.has("url") ? URI.create(extra.get("url").asText()) : null;
        }
        String mimeType = extra.has("mimeAbsent") ? null : media.mimeType();
        boolean binary = extra.has("binary");
        String base64 = extra.has("base64") ? extra.get("base64").asText() : binary ? null : media.base64();
        return new Source(url, binary ? media.data() : null, base64, mimeType);
    }

    private static String text(JsonNode extra, String name) {
        return extra.has(name) ? extra.get(name).asText() : null;
    }
}
