package dev.agentpersistence.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Ids for messages stored before messages had ids (format 1): {@code "v1-"} and 24 hex digits of the SHA-256 of the
 * message's position in the list it was stored in and its stored JSON. Every read of the same document gives the same
 * ids, and so does every checkpoint sharing a history segment; two equal messages at different positions get different
 * ids. Once such a checkpoint is loaded and saved again, the ids are stored with the messages like any other.
 */
public final class LegacyMessageIds {
    private static final String PREFIX = "v1-";

    private LegacyMessageIds() {}

    /** Whether {@code messageId} has the form of an id derived for a format 1 message. */
    public static boolean isDerived(String messageId) {
        return messageId != null && messageId.length() == PREFIX.length() + 24 && messageId.startsWith(PREFIX);
    }

    /** The id of the message stored as {@code message} at {@code index} of its list. */
    public static String of(JsonNode message, int index) {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
        sha256.update((index + ":").getBytes(StandardCharsets.US_ASCII));
        sha256.update(message.toString().getBytes(StandardCharsets.UTF_8));
        return PREFIX + HexFormat.of().formatHex(sha256.digest(), 0, 12);
    }
}
