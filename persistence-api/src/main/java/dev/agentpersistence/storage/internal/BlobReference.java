package dev.agentpersistence.storage.internal;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A content part stored by reference: the SHA-256 of its bytes and their number. In a stored message it is the part's
 * URL, {@code agent-persistence-blob:sha256:<64 hex digits>:<size>}, and the message's reserved metadata entry
 * {@link BlobCodec#PARTS_KEY} lists which parts are references (a URL of this form alone is an ordinary URL).
 *
 * @param sha256 the SHA-256 of the bytes, 64 lower-case hex digits
 * @param size the number of bytes
 */
public record BlobReference(String sha256, long size) {
    /** The scheme of a reference's URL. */
    public static final String SCHEME = "agent-persistence-blob:sha256:";

    private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern URL = Pattern.compile(Pattern.quote(SCHEME) + "([0-9a-f]{64}):([0-9]{1,18})");

    public BlobReference {
        Objects.requireNonNull(sha256, "sha256");
        if (!HASH.matcher(sha256).matches()) {
            throw new IllegalArgumentException("not a SHA-256 in lower-case hex: " + sha256);
        }
        if (size < 0) {
            throw new IllegalArgumentException("size must not be negative but was " + size);
        }
    }

    /** The reference to {@code bytes}. */
    public static BlobReference of(byte[] bytes) {
        return new BlobReference(sha256(bytes), bytes.length);
    }

    /** The SHA-256 of {@code bytes} in lower-case hex. */
    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** The reference a stored URL names, when it has the form of {@link #url()}. */
    public static Optional<BlobReference> parse(String url) {
        if (url == null) {
            return Optional.empty();
        }
        var matcher = URL.matcher(url);
        return matcher.matches()
                ? Optional.of(new BlobReference(matcher.group(1), Long.parseLong(matcher.group(2))))
                : Optional.empty();
    }

    /** The stored URL of this reference. */
    public String url() {
        return SCHEME + sha256 + ":" + size;
    }

    /** The plain name of the blob in its area, {@code blob-} and the hash; {@link BlobNames} gives the names in use. */
    public String blobId() {
        return "blob-" + sha256;
    }
}
