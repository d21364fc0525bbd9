package dev.agentpersistence.springai;

import dev.agentpersistence.ContentPart;
import java.net.MalformedURLException;
import java.net.URL;
import java.util.Map;
import org.springframework.ai.content.Media;
import org.springframework.util.MimeType;

/**
 * Spring AI {@link Media} as a {@link ContentPart.Media} and back. Bytes stay bytes; a {@code String} (a URI or data
 * text) and a {@code java.net.URL} are stored as the part's URL, the latter marked in the message metadata; the media
 * id goes to the message metadata, the name to the part.
 */
final class MediaParts {
    private MediaParts() {}

    /** The part for the {@code index}th media of a message; its extra attributes go into {@code metadata}. */
    static ContentPart.Media toPart(Media media, int index, Map<String, String> metadata) {
        String mimeType = media.getMimeType().toString();
        ContentPart.MediaKind kind = kindOf(media.getMimeType());
        Object data = media.getData();
        ContentPart.Media part;
        if (data instanceof byte[] bytes) {
            part = new ContentPart.Media(kind, mimeType, null, bytes, media.getName());
        } else if (data instanceof String text) {
            part = new ContentPart.Media(kind, mimeType, text, null, media.getName());
        } else if (data instanceof URL url) {
            metadata.put(StoredKeys.mediaUrlType(index), "java.net.URL");
            part = new ContentPart.Media(kind, mimeType, url.toString(), null, media.getName());
        } else {
            throw new IllegalArgumentException(
                    "media data of type " + data.getClass().getName()
                            + " cannot be stored; Spring AI media hold byte[], String or java.net.URL");
        }
        if (media.getId() != null) {
            metadata.put(StoredKeys.mediaId(index), media.getId());
        }
        return part;
    }

    /** The media of the {@code index}th media part of a stored message. */
    static Media fromPart(ContentPart.Media part, int index, Map<String, String> metadata) {
        Media.Builder media = Media.builder().mimeType(mimeTypeOf(part));
        if (part.url() == null) {
            media.data(part.data());
        } else if (metadata.containsKey(StoredKeys.mediaUrlType(index))) {
            media.data(toUrl(part.url()));
        } else {
            media.data(part.url());
        }
        String id = metadata.get(StoredKeys.mediaId(index));
        if (id != null) {
            media.id(id);
        }
        if (part.name() != null) {
            media.name(part.name());
        }
        return media.build();
    }

    private static ContentPart.MediaKind kindOf(MimeType mimeType) {
        return switch (mimeType.getType()) {
            case "image" -> ContentPart.MediaKind.IMAGE;
            case "audio" -> ContentPart.MediaKind.AUDIO;
            case "video" -> ContentPart.MediaKind.VIDEO;
            default -> ContentPart.MediaKind.FILE;
        };
    }

    /** The stored MIME type; for a part stored without one (by another integration), its kind's wildcard. */
    private static MimeType mimeTypeOf(ContentPart.Media part) {
        if (part.mimeType() != null) {
            return MimeType.valueOf(part.mimeType());
        }
        return switch (part.kind()) {
            case IMAGE -> MimeType.valueOf("image/*");
            case AUDIO -> MimeType.valueOf("audio/*");
            case VIDEO -> MimeType.valueOf("video/*");
            case FILE -> MimeType.valueOf("application/octet-stream");
        };
    }

    private static URL toUrl(String url) {
        try {
            return new URL(url);
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("stored media URL '" + url + "' is not a valid java.net.URL", e);
        }
    }
}
