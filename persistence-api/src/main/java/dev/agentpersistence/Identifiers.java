package dev.agentpersistence;

/**
 * The rules every agent and checkpoint id follows: not empty, at most {@value #MAX_LENGTH} UTF-16 characters, no
 * control characters and no unpaired surrogates. Anything else is allowed ({@code ../x}, {@code a/b}, quotes,
 * {@code %}, unicode); providers encode ids and never use them as paths or SQL.
 */
public final class Identifiers {
    /** Longest id accepted, in UTF-16 characters. */
    public static final int MAX_LENGTH = 256;

    private Identifiers() {}

    /**
     * Returns {@code id} when it is valid.
     *
     * @param what what the id names, for the message ("agentId", "checkpointId")
     * @throws InvalidIdentifierException naming the rule broken and the offending position
     */
    public static String requireValid(String id, String what) {
        if (id == null) {
            throw new InvalidIdentifierException(what + " must not be null");
        }
        if (id.isEmpty()) {
            throw new InvalidIdentifierException(what + " must not be empty");
        }
        if (id.length() > MAX_LENGTH) {
            throw new InvalidIdentifierException(what + " is " + id.length() + " characters long; at most " + MAX_LENGTH
                    + " are allowed (starts with '" + id.substring(0, 32) + "…')");
        }
        boolean surrogates = false;
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c >= 0x20 && c < 0x7f) {
                continue; // printable ASCII, the common case
            }
            if (Character.isISOControl(c)) {
                throw new InvalidIdentifierException(
                        what + " contains control character U+" + String.format("%04X", (int) c) + " at index " + i);
            }
            surrogates |= Character.isSurrogate(c);
        }
        int unpaired = surrogates ? unpairedSurrogate(id) : -1;
        if (unpaired >= 0) {
            throw new InvalidIdentifierException(what + " contains an unpaired surrogate U+"
                    + String.format("%04X", (int) id.charAt(unpaired)) + " at index " + unpaired);
        }
        return id;
    }

    /**
     * The index of the first unpaired surrogate in {@code text} (half of a character outside the Basic Multilingual
     * Plane, such as half an emoji), or {@code -1} when every surrogate is paired. Such text cannot be stored as UTF-8
     * text: databases replace it with {@code ?} and JSON parsers in the backends refuse its escape.
     */
    public static int unpairedSurrogate(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether {@code id} follows the rules. */
    public static boolean isValid(String id) {
        try {
            requireValid(id, "id");
            return true;
        } catch (InvalidIdentifierException e) {
            return false;
        }
    }
}
