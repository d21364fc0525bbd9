package dev.agentpersistence.file.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.file.FilePerCheckpoint;
import dev.agentpersistence.file.FileStorage;
import dev.agentpersistence.storage.StorageShell;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Checkpoints, head files and planted files for the head tests. */
final class HeadCheckpoints {
    static final Instant T0 = Instant.parse("2025-01-02T03:04:05Z");

    private HeadCheckpoints() {}

    static AgentCheckpoint checkpoint(String agentId, long version, String writer) {
        return AgentCheckpoint.builder()
                .checkpointId(writer + "-" + version)
                .agentId(agentId)
                .version(version)
                .createdAt(T0.plusSeconds(version))
                .nodeId(version % 2 == 0 ? "even" : "odd")
                .metadata("writer", writer)
                .build();
    }

    /** A provider without fsync (the head protocol does not depend on it) that leaves the store as it is on open. */
    static StorageShell open(Path root) {
        return FileStorage.builder(FilePerCheckpoint.config(root).fsync(false).build())
                .build();
    }

    static Path directory(Path root, String agentId) {
        return root.resolve(FileNames.encode(agentId));
    }

    static Path head(Path root, String agentId) {
        return directory(root, agentId).resolve(FileNames.HEAD_FILE);
    }

    static Path state(Path root, String agentId) {
        return directory(root, agentId).resolve(FileNames.HEAD_LOCK_FILE);
    }

    /** The parsed head file readers use; empty when it is missing or not well-formed. */
    static Optional<HeadState> readHead(Path root, String agentId) throws IOException {
        Path head = head(root, agentId);
        return Files.isRegularFile(head) ? HeadFormat.parse(Files.readAllBytes(head)) : Optional.empty();
    }

    /** The parsed head state (in the lock file); empty when it is missing or not well-formed. */
    static Optional<HeadState> readState(Path root, String agentId) throws IOException {
        Path state = state(root, agentId);
        return Files.isRegularFile(state) ? HeadFormat.parse(Files.readAllBytes(state)) : Optional.empty();
    }

    /** Leaves the head as a save that registered and has not finished leaves it: this state, no head file. */
    static void writeState(Path root, String agentId, HeadState state) throws IOException {
        Files.write(state(root, agentId), HeadFormat.format(state));
        Files.deleteIfExists(head(root, agentId));
    }

    static void writeHead(Path root, String agentId, String content) throws IOException {
        Files.writeString(head(root, agentId), content, StandardCharsets.US_ASCII);
    }

    /** The boot id heads are written with in this run. */
    static String boot() {
        return BootId.read().orElse(HeadFormat.UNKNOWN_HOST);
    }

    /** A head of this boot naming {@code latest}, listing {@code writers}. */
    static HeadState head(long latest, HeadState.Writer... writers) {
        return new HeadState(boot(), latest, List.of(writers));
    }

    /** A save in flight by this (running) process. */
    static HeadState.Writer liveWriter(long version) {
        WriterProcess self = WriterProcess.current().orElseThrow();
        return new HeadState.Writer(
                self.host(), self.pid(), self.startMillis(), "0a1", version, System.currentTimeMillis());
    }

    /** A save in flight by a process that has ended: this PID, started at another time (the PID was reused). */
    static HeadState.Writer deadWriter(long version) {
        WriterProcess self = WriterProcess.current().orElseThrow();
        return new HeadState.Writer(
                self.host(), self.pid(), self.startMillis() - 60_000, "dead", version, System.currentTimeMillis());
    }

    /**
     * Puts a checkpoint file of {@code version} into the agent directory behind the provider's back, as a writer does
     * when it publishes (a hard link of a finished file), without touching the head.
     */
    static AgentCheckpoint plant(Path root, Path scratch, String agentId, long version) throws IOException {
        AgentCheckpoint planted = checkpoint(agentId, version, "planted");
        try (var other = open(scratch)) {
            other.saveCheckpoint(agentId, planted);
        }
        Path source = directory(scratch, agentId).resolve(FileNames.versionFileName(version));
        Path temp = directory(root, agentId).resolve(FileNames.TEMP_PREFIX + "planted-" + version);
        Files.copy(source, temp);
        Files.createLink(directory(root, agentId).resolve(FileNames.versionFileName(version)), temp);
        Files.delete(temp);
        return planted;
    }
}
