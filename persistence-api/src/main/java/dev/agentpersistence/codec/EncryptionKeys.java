package dev.agentpersistence.codec;

import dev.agentpersistence.PersistenceException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import javax.crypto.spec.SecretKeySpec;

/**
 * An immutable key ring for {@link DocumentLayers}: AES-256 keys by id, and the id of the current key that new
 * documents are encrypted with. Old keys stay in the ring to read what they wrote (key rotation: add a key, make it
 * current, keep the old ones). {@link #toString()} shows ids only.
 *
 * <p>Key ids are 1 to {@value #MAX_KEY_ID_LENGTH} characters of {@code A-Z a-z 0-9 . _ -}; each key is exactly 32
 * bytes.
 */
public final class EncryptionKeys {
    /** Longest key id, in characters. */
    public static final int MAX_KEY_ID_LENGTH = 64;
    /** Key length in bytes (AES-256). */
    public static final int KEY_LENGTH = 32;

    private static final byte[] HASH_KEY_LABEL = "agent-persistence keyed hash v1".getBytes(StandardCharsets.US_ASCII);
    /** Characters of a {@value #KEY_LENGTH}-byte key in Base64 without padding. */
    private static final int BASE64_KEY_LENGTH = (KEY_LENGTH * 4 + 2) / 3;

    private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9._-]{1," + MAX_KEY_ID_LENGTH + "}");

    private final Map<String, byte[]> keys;
    private final String currentKeyId;
    /** Per key id, the key {@link #keyedHash} uses, derived once. */
    private final Map<String, SecretKeySpec> hashKeys;

    private EncryptionKeys(Map<String, byte[]> keys, String currentKeyId) {
        this.keys = keys;
        this.currentKeyId = currentKeyId;
        var derived = new LinkedHashMap<String, SecretKeySpec>();
        keys.forEach((id, key) -> derived.put(id, HmacSha256.key(HmacSha256.of(key, HASH_KEY_LABEL))));
        this.hashKeys = Collections.unmodifiableMap(derived);
    }

    /** A builder of a key ring. */
    public static Builder custom() {
        return new Builder();
    }

    /**
     * Parses the configuration form {@code id:base64key,id2:base64key2} (standard or URL-safe Base64).
     *
     * <p>No message of this method, nor any cause, holds key material: an entry that is not a well-formed id followed
     * by a 32-byte key is named by its position only (its id could be a key, written with id and key swapped), an id
     * that is itself a 32-byte key in Base64 is refused, and no parser exception is chained.
     *
     * @param spec the keys
     * @param currentKeyId the id new documents are encrypted with; may be {@code null} when {@code spec} holds one key
     * @throws PersistenceException naming the entry's position, or the id of an otherwise well-formed entry, when the
     *     text is malformed
     */
    public static EncryptionKeys parse(String spec, String currentKeyId) {
        Objects.requireNonNull(spec, "spec");
        var builder = custom();
        var ids = new java.util.HashSet<String>();
        String[] entries = spec.split(",");
        for (int i = 0; i < entries.length; i++) {
            String trimmed = entries[i].strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            String entry = "Encryption key entry " + (i + 1) + " of " + entries.length;
            int colon = trimmed.indexOf(':');
            if (colon <= 0) {
                throw new PersistenceException(entry + " has no key id: write id:base64key[,id:base64key...]");
            }
            String id = trimmed.substring(0, colon).strip();
            if (!isValidKeyId(id) || id.length() >= BASE64_KEY_LENGTH && looksLikeKey(id)) {
                throw new PersistenceException(entry + " has a malformed key id (1 to " + MAX_KEY_ID_LENGTH
                        + " characters of A-Z a-z 0-9 . _ -; are id and key swapped? write id:base64key)");
            }
            byte[] key = decodeBase64(trimmed.substring(colon + 1).strip());
            try {
                if (key == null || key.length != KEY_LENGTH) {
                    throw new PersistenceException(entry + " does not hold a " + KEY_LENGTH + "-byte key in Base64"
                            + (key == null ? "" : " (it decodes to " + key.length + " bytes)")
                            + "; are id and key swapped? write id:base64key");
                }
                if (!ids.add(id)) {
                    throw new PersistenceException("Encryption key id " + shown(id) + " is given twice");
                }
                builder.key(id, key);
            } finally {
                if (key != null) {
                    Arrays.fill(key, (byte) 0);
                }
            }
        }
        if (currentKeyId != null && !currentKeyId.isBlank()) {
            String current = currentKeyId.strip();
            if (!ids.contains(current)) {
                throw new PersistenceException(
                        "The current encryption key " + shown(current) + " is not among the keys "
                                + ids.stream().map(EncryptionKeys::shown).toList());
            }
            builder.currentKey(current);
        } else if (ids.size() > 1) {
            throw new PersistenceException("Several encryption keys "
                    + ids.stream().map(EncryptionKeys::shown).toList()
                    + " but no current key: name the one to encrypt with");
        }
        if (ids.isEmpty()) {
            throw new PersistenceException("An encryption key ring needs at least one key");
        }
        return builder.build();
    }

    /**
     * A key id in quotes for a message, unless it could be a key: as long as a Base64 key, or malformed (a text given
     * as an id may be key material written in the wrong place).
     */
    private static String shown(String id) {
        return isValidKeyId(id) && id.length() < BASE64_KEY_LENGTH
                ? "'" + id + "'"
                : "(an id of " + id.length() + " characters, not shown in case it is a key)";
    }

    /** The id new documents are encrypted with. */
    public String currentKeyId() {
        return currentKeyId;
    }

    /** Every key id in the ring. */
    public Set<String> keyIds() {
        return keys.keySet();
    }

    /** A copy of the key of {@code keyId}, if the ring holds it. */
    Optional<byte[]> key(String keyId) {
        byte[] key = keys.get(keyId);
        return key == null ? Optional.empty() : Optional.of(key.clone());
    }

    /** Whether {@code keyId} is a well-formed key id. */
    public static boolean isValidKeyId(String keyId) {
        return keyId != null && KEY_ID.matcher(keyId).matches();
    }

    /**
     * A keyed hash of {@code input} under the key {@code keyId}: HMAC-SHA256 with a key derived from that key for this
     * use only (never the key that encrypts documents). Equal inputs give equal hashes, so a store can find them
     * without holding them readable.
     *
     * @throws IllegalArgumentException when the ring holds no key {@code keyId}
     */
    public byte[] keyedHash(String keyId, byte[] input) {
        Objects.requireNonNull(input, "input");
        SecretKeySpec key = hashKeys.get(Objects.requireNonNull(keyId, "keyId"));
        if (key == null) {
            throw new IllegalArgumentException("No encryption key '" + keyId + "' in " + this);
        }
        return HmacSha256.of(key, input);
    }

    @Override
    public String toString() {
        return "EncryptionKeys[current=" + currentKeyId + ", ids=" + keys.keySet() + "]";
    }

    /** Whether {@code text} decodes as Base64 to a key's length: written where an id belongs, it is a key. */
    private static boolean looksLikeKey(String text) {
        byte[] decoded = decodeBase64(text);
        boolean key = decoded != null && decoded.length == KEY_LENGTH;
        if (decoded != null) {
            Arrays.fill(decoded, (byte) 0);
        }
        return key;
    }

    /** The decoded bytes, or {@code null} when {@code text} is not Base64 (the decoder's message quotes it). */
    private static byte[] decodeBase64(String text) {
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException standard) {
            try {
                return Base64.getUrlDecoder().decode(text);
            } catch (IllegalArgumentException urlSafe) {
                return null;
            }
        }
    }

    /** Builds {@link EncryptionKeys}; the current key must be one of the keys. */
    public static final class Builder {
        private final Map<String, byte[]> keys = new LinkedHashMap<>();
        private String currentKeyId;

        private Builder() {}

        /** Adds a 32-byte key under {@code keyId} (the bytes are copied). */
        public Builder key(String keyId, byte[] key) {
            Objects.requireNonNull(keyId, "keyId");
            Objects.requireNonNull(key, "key");
            if (!isValidKeyId(keyId)) {
                throw new IllegalArgumentException("Encryption key id '" + keyId + "' must be 1 to " + MAX_KEY_ID_LENGTH
                        + " characters of A-Z a-z 0-9 . _ -");
            }
            if (key.length != KEY_LENGTH) {
                throw new IllegalArgumentException("Encryption key '" + keyId + "' must be " + KEY_LENGTH
                        + " bytes (AES-256) but is " + key.length);
            }
            if (keys.containsKey(keyId)) {
                throw new IllegalArgumentException("Encryption key id '" + keyId + "' is given twice");
            }
            keys.put(keyId, key.clone());
            return this;
        }

        /** The key new documents are encrypted with; must be added with {@link #key}. */
        public Builder currentKey(String keyId) {
            this.currentKeyId = Objects.requireNonNull(keyId, "keyId");
            return this;
        }

        /**
         * The key ring.
         *
         * @throws IllegalStateException when there is no key, or no current key among several, or the current key is
         *     unknown
         */
        public EncryptionKeys build() {
            if (keys.isEmpty()) {
                throw new IllegalStateException("An encryption key ring needs at least one key");
            }
            String current = currentKeyId;
            if (current == null) {
                if (keys.size() > 1) {
                    throw new IllegalStateException("Several encryption keys " + keys.keySet()
                            + " but no current key: name the one to encrypt with");
                }
                current = keys.keySet().iterator().next();
            }
            if (!keys.containsKey(current)) {
                throw new IllegalStateException(
                        "The current encryption key '" + current + "' is not among the keys " + keys.keySet());
            }
            return new EncryptionKeys(Collections.unmodifiableMap(new LinkedHashMap<>(keys)), current);
        }
    }
}
