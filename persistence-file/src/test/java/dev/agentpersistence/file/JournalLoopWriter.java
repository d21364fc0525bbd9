package dev.agentpersistence.file;

import java.nio.file.Path;

/**
 * A writer killed by its test: saves checkpoints of one agent, kept as a journal with fsync on, from
 * a first version upwards, and prints {@code saved <v>} after each save returned. Arguments: root,
 * agent id, first version.
 */
public final class JournalLoopWriter {
    static final String WRITER = "looping child";

    private JournalLoopWriter() {
    }

    public static void main(String[] args) {
        Path root = Path.of(args[0]);
        String agentId = args[1];
        long first = Long.parseLong(args[2]);
        try (var provider = FileStorageProvider.of(FileStorageConfig.custom().directory(root).journal(true).fsync(true).build())) {
            for (long version = first; version < first + 1_000_000; version++) {
                provider.saveCheckpoint(agentId, TestCheckpoints.checkpoint(agentId, version, "cp-" + version, WRITER));
                System.out.println("saved " + version);
                System.out.flush();
            }
        }
    }
}
