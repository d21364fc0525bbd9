package dev.agentpersistence.koog;

import ai.koog.prompt.message.AttachmentContent;
import ai.koog.prompt.message.AttachmentSource;
import ai.koog.prompt.message.MessagePart;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.Message;
import dev.agentpersistence.ToolCall;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Maps one Koog message onto one of our {@link Message}s and back, exactly.
 *
 * <p>What our record can say, it says: the role, the text, text and media parts (attachments by URL or by bytes), the
 * first tool call, the tool result's call id and tool name. The rest of Koog's message (its type, meta info, reasoning,
 * tool parts, cache control) is kept in Koog's own JSON under the metadata key {@link #KOOG_MESSAGE}, with the text and
 * media payloads taken out, since our record holds them. Reading puts them back in the same places, so the message Koog
 * gets is equal to the one it saved.
 */
final class KoogMessages {
    /** Metadata key of the Koog JSON of a message, without the text and media our record holds. */
    static final String KOOG_MESSAGE = "koog.message";

    private static final String TYPE = "type";
    private static final String SYSTEM_MESSAGE = ai.koog.prompt.message.Message.System.Companion.serializer()
            .getDescriptor()
            .getSerialName();
    private static final String TEXT_PART =
            MessagePart.Text.Companion.serializer().getDescriptor().getSerialName();
    private static final String ATTACHMENT_PART =
            MessagePart.Attachment.Companion.serializer().getDescriptor().getSerialName();
    private static final Map<String, ContentPart.MediaKind> MEDIA_KINDS = Map.of(
            AttachmentSource.Image.Companion.serializer().getDescriptor().getSerialName(), ContentPart.MediaKind.IMAGE,
            AttachmentSource.Audio.Companion.serializer().getDescriptor().getSerialName(), ContentPart.MediaKind.AUDIO,
            AttachmentSource.Video.Companion.serializer().getDescriptor().getSerialName(), ContentPart.MediaKind.VIDEO,
            AttachmentSource.File.Companion.serializer().getDescriptor().getSerialName(), ContentPart.MediaKind.FILE);
    private static final String URL_CONTENT =
            AttachmentContent.URL.Companion.serializer().getDescriptor().getSerialName();
    /** The binary contents; Koog writes both kinds' bytes as Base64 text in the field {@link #BASE64}. */
    private static final Set<String> BINARY_CONTENTS = Set.of(
            AttachmentContent.Binary.Base64.Companion.serializer()
                    .getDescriptor()
                    .getSerialName(),
            AttachmentContent.Binary.Bytes.Companion.serializer()
                    .getDescriptor()
                    .getSerialName());

    private static final String BASE64 = "base64";

    private KoogMessages() {}

    /**
     * Our record of a Koog message.
     *
     * @param index the message's place in the history; part of the id of a message Koog gave none
     */
    static Message toRecord(ai.koog.prompt.message.Message message, int index) {
        ObjectNode koog = KoogJson.message(message);
        String id = message.getId() != null
                        && !message.getId().isEmpty()
                        && message.getId().length() <= 256
                ? message.getId()
                : derivedId(koog, index);
        var lifted = new ArrayList<ContentPart>();
        JsonNode partsJson = koog.path("parts");
        for (int i = 0; i < partsJson.size(); i++) {
            lift((ObjectNode) partsJson.get(i), message.getParts().get(i), lifted);
        }
        var metadata = new TreeMap<String, String>();
        metadata.put(KOOG_MESSAGE, koog.toString());
        ToolCall toolCall = firstToolCall(message, id);
        Message.Role role = role(message, toolCall != null);
        String content;
        List<ContentPart> parts;
        if (lifted.size() == 1 && lifted.get(0) instanceof ContentPart.Text only) {
            content = only.text();
            parts = List.of();
        } else {
            content = Message.textOf(lifted);
            parts = lifted;
        }
        if (role == Message.Role.TOOL_RESULT) {
            MessagePart.Tool.Result result =
                    (MessagePart.Tool.Result) message.getParts().get(0);
            content = result.getOutput();
            if (result.getId() != null) {
                metadata.put(Message.TOOL_CALL_ID, result.getId());
            }
            metadata.put(Message.TOOL_NAME, result.getTool());
        }
        return new Message(id, role, content, parts, toolCall, metadata);
    }

    /**
     * The Koog JSON of the message one of our records written by {@link #toRecord} holds.
     *
     * @throws IllegalArgumentException when the record was not written by this module or its parts do not fit the Koog
     *     message it describes
     */
    static ObjectNode toKoogJson(Message record) {
        String stored = record.metadata().get(KOOG_MESSAGE);
        if (stored == null) {
            throw new IllegalArgumentException("message '" + record.id() + "' has no '" + KOOG_MESSAGE
                    + "' metadata: it was not written by the Koog integration");
        }
        ObjectNode koog = KoogJson.object(stored);
        Iterator<ContentPart> lifted = (record.parts().isEmpty()
                        ? List.<ContentPart>of(ContentPart.text(record.content()))
                        : record.parts())
                .iterator();
        boolean allText = koog.path(TYPE).asText().equals(SYSTEM_MESSAGE);
        int slots = 0;
        for (JsonNode part : koog.path("parts")) {
            if (restore((ObjectNode) part, allText, lifted)) {
                slots++;
            }
        }
        if (!record.parts().isEmpty()
                && (lifted.hasNext() || slots != record.parts().size())) {
            throw new IllegalArgumentException("message '" + record.id() + "' has "
                    + record.parts().size() + " content parts but its Koog message has " + slots + " places for them");
        }
        return koog;
    }

    /** Moves a text or media payload from Koog's part into {@code lifted}, leaving the part's other fields. */
    private static void lift(ObjectNode part, MessagePart koogPart, List<ContentPart> lifted) {
        if (koogPart instanceof MessagePart.Text) {
            lifted.add(ContentPart.text(part.remove("text").asText()));
        } else if (koogPart instanceof MessagePart.Attachment) {
            ObjectNode source = (ObjectNode) part.get("source");
            ContentPart.MediaKind kind = MEDIA_KINDS.get(source.path(TYPE).asText());
            ObjectNode content = (ObjectNode) source.get("content");
            String contentType = content.path(TYPE).asText();
            String mimeType = ((MessagePart.Attachment) koogPart).getSource().getMimeType();
            String fileName =
                    source.hasNonNull("fileName") ? source.get("fileName").asText() : null;
            ContentPart.Media media = null;
            if (kind != null
                    && contentType.equals(URL_CONTENT)
                    && content.path("url").isTextual()) {
                media = new ContentPart.Media(
                        kind, mimeType, content.remove("url").asText(), null, fileName);
            } else if (kind != null
                    && BINARY_CONTENTS.contains(contentType)
                    && content.path(BASE64).isTextual()) {
                byte[] bytes = ContentPart.canonicalBase64(content.get(BASE64).asText());
                if (bytes != null) {
                    content.remove(BASE64);
                    media = new ContentPart.Media(kind, mimeType, null, bytes, fileName);
                }
            }
            if (media != null) {
                lifted.add(media);
            }
        }
    }

    /**
     * Puts the next lifted payload back into a part that {@link #lift} emptied; false for other parts.
     *
     * @param allText whether every part is text (a system message's parts are, and carry no type)
     */
    private static boolean restore(ObjectNode part, boolean allText, Iterator<ContentPart> lifted) {
        String type = part.path(TYPE).asText();
        if ((allText || type.equals(TEXT_PART)) && !part.has("text")) {
            part.put("text", next(lifted, ContentPart.Text.class).text());
            return true;
        }
        if (type.equals(ATTACHMENT_PART)) {
            ObjectNode content = (ObjectNode) part.get("source").get("content");
            String contentType = content.path(TYPE).asText();
            if (contentType.equals(URL_CONTENT) && !content.has("url")) {
                content.put("url", next(lifted, ContentPart.Media.class).url());
                return true;
            }
            if (BINARY_CONTENTS.contains(contentType) && !content.has(BASE64)) {
                content.put(BASE64, next(lifted, ContentPart.Media.class).base64());
                return true;
            }
        }
        return false;
    }

    private static <T extends ContentPart> T next(Iterator<ContentPart> lifted, Class<T> kind) {
        if (!lifted.hasNext()) {
            throw new IllegalArgumentException(
                    "the Koog message has more places for content than the record has parts");
        }
        ContentPart part = lifted.next();
        if (!kind.isInstance(part)) {
            throw new IllegalArgumentException("expected a " + kind.getSimpleName() + " content part, found " + part);
        }
        return kind.cast(part);
    }

    private static Message.Role role(ai.koog.prompt.message.Message message, boolean callsTools) {
        if (message instanceof ai.koog.prompt.message.Message.System) {
            return Message.Role.SYSTEM;
        }
        if (message instanceof ai.koog.prompt.message.Message.Assistant) {
            return callsTools ? Message.Role.TOOL_CALL : Message.Role.ASSISTANT;
        }
        boolean onlyResults = !message.getParts().isEmpty()
                && message.getParts().stream().allMatch(MessagePart.Tool.Result.class::isInstance);
        return onlyResults ? Message.Role.TOOL_RESULT : Message.Role.USER;
    }

    private static ToolCall firstToolCall(ai.koog.prompt.message.Message message, String messageId) {
        for (MessagePart part : message.getParts()) {
            if (part instanceof MessagePart.Tool.Call call) {
                String callId = call.getId() != null ? call.getId() : messageId;
                return new ToolCall(callId, call.getTool(), ToolCall.argumentsOf(call.getArgs()));
            }
        }
        return null;
    }

    /** The id of a message Koog gave none: its place and a digest of its Koog JSON, the same on every save. */
    private static String derivedId(ObjectNode koog, int index) {
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256").digest(koog.toString().getBytes(StandardCharsets.UTF_8));
            return "koog-" + index + "-" + HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
