package dev.agentpersistence.storage.internal;

import dev.agentpersistence.codec.DocumentLayers;
import dev.agentpersistence.codec.EncryptionKeys;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * The names blobs are kept under in their area. Without encryption a blob's name is {@link BlobReference#blobId()},
 * {@code blob-<sha256>}. With encryption it is a keyed hash of the reference under the ring's current key,
 * {@code blob-<key id>-<32 hex digits>}: the bytes are encrypted, and the name no longer lets someone who holds a file
 * confirm that the store holds it too. Readers look under the name of every key of the ring, then under the plain name
 * (blobs written before encryption was on, or by a version that named every blob by its hash). After a key rotation a
 * blob saved again is kept once more under the new key's name; collection keeps every copy while anything references
 * the blob, and frees them all once nothing does.
 */
public final class BlobNames {
    private static final int NAME_BYTES = 16;
    private static final byte[] LABEL = "blob name\0".getBytes(StandardCharsets.US_ASCII);

    private final EncryptionKeys keys;

    private BlobNames(EncryptionKeys keys) {
        this.keys = keys;
    }

    /** The names of blobs written with {@code layers}: keyed when they encrypt. */
    public static BlobNames of(DocumentLayers layers) {
        return new BlobNames(Objects.requireNonNull(layers, "layers").keys().orElse(null));
    }

    /** The name a blob is written under. */
    public String written(BlobReference reference) {
        return keys == null ? reference.blobId() : keyed(keys.currentKeyId(), reference);
    }

    /** The names a blob may be kept under, the one it is written under first. */
    public List<String> candidates(BlobReference reference) {
        if (keys == null) {
            return List.of(reference.blobId());
        }
        var names = new ArrayList<String>(keys.keyIds().size() + 1);
        names.add(keyed(keys.currentKeyId(), reference));
        for (String keyId : keys.keyIds()) {
            if (!keyId.equals(keys.currentKeyId())) {
                names.add(keyed(keyId, reference));
            }
        }
        names.add(reference.blobId());
        return List.copyOf(names);
    }

    private String keyed(String keyId, BlobReference reference) {
        byte[] text = reference.url().getBytes(StandardCharsets.US_ASCII);
        byte[] input = Arrays.copyOf(LABEL, LABEL.length + text.length);
        System.arraycopy(text, 0, input, LABEL.length, text.length);
        byte[] hash = keys.keyedHash(keyId, input);
        return "blob-" + keyId + "-" + HexFormat.of().formatHex(hash, 0, NAME_BYTES);
    }
}
