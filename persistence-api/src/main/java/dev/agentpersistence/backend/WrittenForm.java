package dev.agentpersistence.backend;

/**
 * What a provider writes new documents with, as its {@link StoredForm} reports it; every form is read whatever this
 * says.
 *
 * @param formatVersion the version of the stored JSON form
 * @param compression whether documents are compressed (from a minimum size)
 * @param checksum whether documents carry a checksum
 * @param encryption whether documents are encrypted
 * @param incrementalHistory whether long histories are stored once in shared segments
 */
public record WrittenForm(
        int formatVersion, boolean compression, boolean checksum, boolean encryption, boolean incrementalHistory) {}
