package dev.agentpersistence.file.internal;

import java.nio.file.Path;

/**
 * Where one agent's files live.
 *
 * @param agentId the agent
 * @param directory the agent's directory: one file per checkpoint, named by version
 * @param ids the id index: one hard link per checkpoint, named by checkpoint id
 * @param journal the agent's journal: its checkpoints as appended records, when the agent is kept in that form
 */
public record AgentPaths(String agentId, Path directory, Path ids, Path journal) {

    /** The paths of {@code agentId} kept in {@code directory}. */
    public static AgentPaths of(String agentId, Path directory) {
        return new AgentPaths(
                agentId,
                directory,
                directory.resolve(FileNames.IDS_DIRECTORY),
                directory.resolve(FileNames.JOURNAL_FILE));
    }

    /** The checkpoint file of {@code version}. */
    public Path versionFile(long version) {
        return directory.resolve(FileNames.versionFileName(version));
    }

    /** The id entry of {@code checkpointId}. */
    public Path idEntry(String checkpointId) {
        return ids.resolve(FileNames.encode(checkpointId));
    }

    /** The directory of the agent's history segments. */
    public Path segments() {
        return directory.resolve(FileNames.SEGMENTS_DIRECTORY);
    }

    /** The file of history segment {@code segmentId}. */
    public Path segmentFile(String segmentId) {
        return segments().resolve(FileNames.encode(segmentId));
    }

    /** The file holding the agent id of a hashed directory name. */
    public Path agentIdFile() {
        return directory.resolve(FileNames.AGENT_ID_FILE);
    }

    /** The head file readers use: the latest version, present only while no save is in flight. */
    public Path head() {
        return directory.resolve(FileNames.HEAD_FILE);
    }

    /** The head's state (the latest version and the saves in flight); its lock guards changes of both. */
    public Path headLock() {
        return directory.resolve(FileNames.HEAD_LOCK_FILE);
    }

    /** Whether the directory name is a hash, so the agent id must be kept in {@link #agentIdFile()}. */
    public boolean hashedName() {
        return FileNames.isHashed(directory.getFileName().toString());
    }
}
