package dev.agentpersistence.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.ContentPart;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * The stored form of a message's content parts: {@code {"type":"text","text":"…"}} or
 * {@code {"type":"image|audio|video|file","mimeType":"…","url":"…"|"data":"<Base64>","name":"…"}}.
 */
final class ContentParts {
    private ContentParts() {}

    static void write(JsonGenerator g, ContentPart part) throws IOException {
        g.writeStartObject();
        if (part instanceof ContentPart.Text text) {
            g.writeStringField("type", "text");
            JsonStrings.writeField(g, "text", text.text());
        } else if (part instanceof ContentPart.Media media) {
            g.writeStringField("type", media.kind().name().toLowerCase(Locale.ROOT));
            writeOptional(g, "mimeType", media.mimeType());
            writeOptional(g, "url", media.url());
            if (media.url() == null) {
                g.writeFieldName("data");
                byte[] data = media.data();
                g.writeBinary(data, 0, data.length);
            }
            writeOptional(g, "name", media.name());
        }
        g.writeEndObject();
    }

    static List<ContentPart> read(JsonNode parts, int messageIndex) {
        if (parts == null || parts.isNull()) {
            return List.of();
        }
        String where = "messageHistory[" + messageIndex + "].parts";
        if (!parts.isArray()) {
            throw new IllegalArgumentException(where + " is not an array");
        }
        var read = new ArrayList<ContentPart>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            read.add(part(parts.get(i), where + "[" + i + "]"));
        }
        return read;
    }

    private static ContentPart part(JsonNode node, String where) {
        if (!node.isObject()) {
            throw new IllegalArgumentException(where + " is not an object");
        }
        String type = string(node, "type", where);
        if (type == null) {
            throw new IllegalArgumentException(where + " has no type");
        }
        if (type.equals("text")) {
            String text = string(node, "text", where);
            if (text == null) {
                throw new IllegalArgumentException(where + " is a text part without text");
            }
            return ContentPart.text(text);
        }
        ContentPart.MediaKind kind;
        try {
            kind = ContentPart.MediaKind.valueOf(type.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + " has the unknown type '" + type + "'");
        }
        String data = string(node, "data", where);
        byte[] bytes;
        try {
            bytes = data == null ? null : Base64.getDecoder().decode(data);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ".data is not Base64");
        }
        try {
            return new ContentPart.Media(
                    kind,
                    string(node, "mimeType", where),
                    string(node, "url", where),
                    bytes,
                    string(node, "name", where));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage());
        }
    }

    private static String string(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new IllegalArgumentException(where + "." + field + " is not a string");
        }
        return value.textValue();
    }

    /** Writes {@code field} unless {@code value} is null. */
    static void writeOptional(JsonGenerator g, String field, String value) throws IOException {
        if (value != null) {
            g.writeStringField(field, value);
        }
    }
}
