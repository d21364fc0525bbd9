package dev.agentpersistence.history.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.agentpersistence.Message;
import dev.agentpersistence.codec.JsonCheckpointCodec;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * The SHA-256 hash chain over blocks of messages: {@code c(0)} is 32 zero bytes and {@code c(k+1) = SHA-256(c(k) ‖
 * block k)}, each message in the canonical JSON form of {@link JsonCheckpointCodec#writeMessage(JsonGenerator, Message,
 * boolean)}: with its id when ids are stored and the message has a given one (not none, not one
 * {@linkplain Message#hasDerivedId() derived} on reading), so a message stored without an id hashes alike when written
 * and when read back. {@code c(k)} thus names the first {@code k} blocks exactly, whatever bytes a codec stores them
 * as. Stateless and thread-safe.
 */
public final class ChainHasher {
    private static final byte[] ORIGIN = new byte[32];
    private static final byte[] DIGEST_LABEL = "agent-persistence history".getBytes(StandardCharsets.US_ASCII);

    private final JsonFactory json = new JsonFactory();
    private final boolean idsStored;

    /** A hasher for reading, and for writing a format that stores message ids. */
    public ChainHasher() {
        this(true);
    }

    /** A hasher for writing; {@code idsStored} is whether the written format stores message ids. */
    public ChainHasher(boolean idsStored) {
        this.idsStored = idsStored;
    }

    /** {@code c(0)}. */
    public static byte[] origin() {
        return ORIGIN.clone();
    }

    /** {@code c(k+1)} from {@code c(k)} and block {@code k}. */
    public byte[] next(byte[] previous, List<Message> block) {
        MessageDigest sha = sha256();
        sha.update(previous);
        feed(sha, block);
        return sha.digest();
    }

    /** The digest of a whole history: its size, the chain over its complete blocks and the rest. */
    public byte[] digest(byte[] chainOfBlocks, List<Message> rest, int size) {
        MessageDigest sha = sha256();
        sha.update(DIGEST_LABEL);
        sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(size).array());
        sha.update(chainOfBlocks);
        feed(sha, rest);
        return sha.digest();
    }

    private void feed(MessageDigest sha, List<Message> messages) {
        try (OutputStream out = new DigestOutputStream(OutputStream.nullOutputStream(), sha);
                JsonGenerator g = json.createGenerator(out)) {
            for (Message message : messages) {
                JsonCheckpointCodec.writeMessage(g, message, idsStored);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not hash messages", e);
        }
    }

    /** A new SHA-256 digest. */
    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
