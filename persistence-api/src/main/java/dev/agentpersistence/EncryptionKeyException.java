package dev.agentpersistence;

/**
 * A stored document is encrypted and cannot be decrypted: its key id is not configured, or the configured key of that
 * id does not open it (a wrong key, or data altered after it was written). Names the key id and the location; never
 * contains key material.
 */
public class EncryptionKeyException extends CorruptCheckpointException {
    private final String keyId;

    public EncryptionKeyException(
            String agentId, String checkpointId, String location, String keyId, String problem, Throwable cause) {
        super(agentId, checkpointId, location, problem, cause);
        this.keyId = keyId;
    }

    /** The key id written in the document. */
    public String keyId() {
        return keyId;
    }
}
