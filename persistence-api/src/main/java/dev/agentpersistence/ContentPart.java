package dev.agentpersistence;

import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

/**
 * One piece of a multi-modal {@link Message}: text, or media (image, audio, video, file) given by URL or by bytes with
 * a MIME type. A message's parts keep the order its author gave them.
 */
public sealed interface ContentPart permits ContentPart.Text, ContentPart.Media {

    /** Text content. */
    static Text text(String text) {
        return new Text(text);
    }

    /** Media referenced by URL; {@code mimeType} may be {@code null} when unknown. */
    static Media url(MediaKind kind, String url, String mimeType) {
        return new Media(kind, mimeType, url, null, null);
    }

    /** Media given inline as bytes (copied) with a MIME type. */
    static Media bytes(MediaKind kind, byte[] data, String mimeType) {
        return new Media(kind, Objects.requireNonNull(mimeType, "mimeType"), null, data, null);
    }

    /**
     * The bytes of a Base64 text (standard alphabet, padded) that encodes back to exactly the same text, else
     * {@code null} (also for {@code null}): such media can be stored as bytes and given back as the same text.
     */
    static byte[] canonicalBase64(String text) {
        if (text == null) {
            return null;
        }
        try {
            byte[] bytes = java.util.Base64.getDecoder().decode(text);
            return java.util.Base64.getEncoder().encodeToString(bytes).equals(text) ? bytes : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The kinds of media a part can hold. */
    enum MediaKind {
        IMAGE,
        AUDIO,
        VIDEO,
        FILE
    }

    /**
     * A text part.
     *
     * @param text the text; never {@code null}
     */
    record Text(String text) implements ContentPart {
        public Text {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * A media part: exactly one of {@code url} and {@code data} is set.
     *
     * @param kind image, audio, video or file
     * @param mimeType the MIME type; required with {@code data}, optional with {@code url}
     * @param url where the media lives, or {@code null}
     * @param data the media's bytes, or {@code null}; copied in and out, compared by content
     * @param name a file name, or {@code null}
     */
    record Media(MediaKind kind, String mimeType, String url, byte[] data, String name) implements ContentPart {
        public Media {
            Objects.requireNonNull(kind, "kind");
            if ((url == null) == (data == null)) {
                throw new IllegalArgumentException("a media part needs exactly one of url and data");
            }
            if (data != null && mimeType == null) {
                throw new IllegalArgumentException("a media part given as bytes needs a MIME type");
            }
            data = data == null ? null : data.clone();
        }

        /** A copy of the bytes, or {@code null} for a part given by URL. */
        @Override
        public byte[] data() {
            return data == null ? null : data.clone();
        }

        /** The number of inline bytes (0 for a part given by URL), without copying them. */
        public int size() {
            return data == null ? 0 : data.length;
        }

        /** Returns a copy with a file name. */
        public Media withName(String fileName) {
            return new Media(kind, mimeType, url, data, fileName);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Media m
                    && kind == m.kind
                    && Objects.equals(mimeType, m.mimeType)
                    && Objects.equals(url, m.url)
                    && Arrays.equals(data, m.data)
                    && Objects.equals(name, m.name);
        }

        @Override
        public int hashCode() {
            return Objects.hash(kind, mimeType, url, Arrays.hashCode(data), name);
        }

        @Override
        public String toString() {
            String source = url != null ? "url=" + url : "data=" + data.length + " bytes";
            return "Media[kind=" + kind + ", mimeType=" + mimeType + ", " + source
                    + (name == null ? "" : ", name=" + name) + "]";
        }

        /** The bytes as standard Base64, or {@code null} for a part given by URL. */
        public String base64() {
            return data == null ? null : Base64.getEncoder().encodeToString(data);
        }
    }
}
