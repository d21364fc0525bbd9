package dev.agentpersistence.backend;

/**
 * Reads which checkpoint a stored document is (its id and version) without the backend knowing the stored form: the
 * storage shell hands one to every backend it opens ({@link BackendContext#identities()}), for layouts that must learn
 * a document's version from its bytes (the file backend's id index). It decodes the document, so backends call it only
 * on rare paths.
 */
@FunctionalInterface
public interface DocumentIdentity {

    /** The id and version of a stored checkpoint. */
    record Identity(String checkpointId, long version) {}

    /**
     * The identity of {@code document}, stored for {@code agentId} (and {@code checkpointId}, when the backend filed it
     * under one, else {@code null}) at {@code where}.
     *
     * @throws dev.agentpersistence.CorruptCheckpointException when the bytes are not a readable checkpoint of that
     *     agent and id
     */
    Identity of(String agentId, String checkpointId, byte[] document, String where);
}
