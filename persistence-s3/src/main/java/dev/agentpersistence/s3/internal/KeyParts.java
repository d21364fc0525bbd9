package dev.agentpersistence.s3.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Turns agent and checkpoint ids into key parts (one path level each) made only of {@code [0-9a-f]} after a one-letter
 * tag, so no id can add a path level, climb with {@code ..}, or collide by case on stores that fold case. Ids of up to
 * {@value #MAX_DIRECT_BYTES} UTF-8 bytes are hex-encoded ({@code e…}, reversible); longer ones become the hex SHA-256
 * of their bytes ({@code s…}, 65 characters) so that every part stays under the 255-byte name limit of
 * file-system-backed stores; the full id is then kept in the object the part names.
 */
public final class KeyParts {
    /** Longest id, in UTF-8 bytes, that is encoded reversibly (201 characters). */
    public static final int MAX_DIRECT_BYTES = 100;

    private static final HexFormat HEX = HexFormat.of();

    private KeyParts() {}

    /** The key part of {@code id}. */
    public static String encode(String id) {
        byte[] bytes = id.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= MAX_DIRECT_BYTES) {
            return "e" + HEX.formatHex(bytes);
        }
        return "s" + HEX.formatHex(sha256(bytes));
    }

    /** The id a reversible part stands for; empty for a digest part or a malformed one. */
    public static Optional<String> decode(String part) {
        if (part.length() < 3 || part.charAt(0) != 'e' || part.length() % 2 == 0) {
            return Optional.empty();
        }
        try {
            byte[] bytes = HEX.parseHex(part, 1, part.length());
            return Optional.of(new String(bytes, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Whether {@code part} is a digest that needs a lookup to recover its id. */
    public static boolean isDigest(String part) {
        return part.startsWith("s");
    }

    /** SHA-256 of {@code bytes}. */
    public static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** Lower-case hex of {@code bytes}. */
    public static String hex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }
}
