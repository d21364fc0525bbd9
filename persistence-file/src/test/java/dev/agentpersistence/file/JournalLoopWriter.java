package dev.agentpersistence.file;

import java.nio.file.Path;

/**
 * A writer killed by its test: saves checkpoints of one agent, kept as a journal with fsync on, from
 * a first version upwards, and prints {@code saved <v>} after each save returned. Arguments: root,
 * agent id, first version, and optionally how many checkpoints to keep: then each save is followed
 * by deleting the older ones, with checkpoints of about a kilobyte, so the journal is compacted often.
 */
public final class JournalLoopWriter {
    static final String WRITER = "looping child";
    static final String PADDED_WRITER = "looping child " + "p".repeat(1000);

    private JournalLoopWriter() {
    }

    public static void main(String[] args) {
        Path root = Path.of(args[0]);
        String agentId = args[1];
        long first = Long.parseLong(args[2]);
        int keep = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        String writer = keep > 0 ? PADDED_WRITER : WRITER;
        try (var provider = FileStorageProvider.of(FileStorageConfig.custom().directory(root).journal(true).fsync(true).build())) {
            for (long version = first; version < first + 1_000_000; version++) {
                provider.saveCheckpoint(agentId, TestCheckpoints.checkpoint(agentId, version, "cp-" + version, writer));
                System.out.println("saved " + version);
                System.out.flush();
                if (keep > 0) {
                    provider.deleteCheckpointsBefore(agentId, version - keep + 1);
                }
            }
        }
    }
}
