package dev.agentpersistence.cli.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** A running SHA-256 over text lines or bytes. */
public final class Digest {
    private final MessageDigest sha256;

    /** A digest of nothing yet. */
    public Digest() {
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** Adds {@code line} and a line feed, as UTF-8. */
    public void addLine(String line) {
        sha256.update(line.getBytes(StandardCharsets.UTF_8));
        sha256.update((byte) '\n');
    }

    /** Adds {@code bytes}. */
    public void add(byte[] bytes) {
        sha256.update(bytes);
    }

    /** The digest so far, in lower-case hex (this digest can go on). */
    public String hex() {
        try {
            return HexFormat.of().formatHex(((MessageDigest) sha256.clone()).digest());
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("SHA-256 digests can be cloned", e);
        }
    }
}
