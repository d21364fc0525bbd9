package dev.agentpersistence.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Ids derived on reading for messages stored without one. Format 1 documents: {@code "v1-"} and 24 hex digits of the
 * SHA-256 of the message's position in the list it was stored in and its stored JSON. Later formats, where a message
 * has an id only when its author gave one: {@code "v2-"}, the position in the whole history as 8 hex digits and 16 hex
 * digits of the SHA-256 of the message's JSON. Every read of the same history gives the same ids; two equal messages at
 * different positions get different ids. A derived id is not part of a message's identity and is not stored.
 */
public final class LegacyMessageIds {
    private static final String FORMAT_1 = "v1-";
    private static final String LATER = "v2-";
    private static final int LENGTH = 27;

    private LegacyMessageIds() {}

    /** Whether {@code messageId} has the form of an id derived on reading. */
    public static boolean isDerived(String messageId) {
        return messageId != null
                && messageId.length() == LENGTH
                && (messageId.startsWith(FORMAT_1) || messageId.startsWith(LATER));
    }

    /** The id of a message without one at {@code index} of a history, whose JSON without id is {@code json}. */
    public static String of(int index, byte[] json) {
        byte[] digest = sha256().digest(json);
        return LATER + String.format("%08x", index) + HexFormat.of().formatHex(digest, 0, 8);
    }

    /** The id of the message stored as {@code message} at {@code index} of its list. */
    public static String of(JsonNode message, int index) {
        MessageDigest sha256 = sha256();
        sha256.update((index + ":").getBytes(StandardCharsets.US_ASCII));
        sha256.update(message.toString().getBytes(StandardCharsets.UTF_8));
        return FORMAT_1 + HexFormat.of().formatHex(sha256.digest(), 0, 12);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
