package dev.agentpersistence.file;

import java.nio.file.Path;

/**
 * A writer killed by its test: saves checkpoints of one agent, kept as a journal with fsync on, from a first version
 * upwards, and appends the line {@code saved <v>} to a progress file after each save returned (one write each, which a
 * kill does not undo, unlike output still in a pipe). Arguments: root, agent id, first version, progress file, and
 * optionally how many checkpoints to keep: then each save is followed by deleting the older ones, with checkpoints of
 * about a kilobyte, so the journal is compacted often; or {@code growing}: then each checkpoint is
 * {@link TestCheckpoints#growing} (a history of 20 messages and two more per version), so each save appends a log entry
 * and the record in one write.
 */
public final class JournalLoopWriter {
    static final String WRITER = "looping child";
    static final String PADDED_WRITER = "looping child " + "p".repeat(1000);

    private JournalLoopWriter() {}

    public static void main(String[] args) throws java.io.IOException {
        Path root = Path.of(args[0]);
        String agentId = args[1];
        long first = Long.parseLong(args[2]);
        Path progressFile = Path.of(args[3]);
        boolean growing = args.length > 4 && args[4].equals("growing");
        int keep = args.length > 4 && !growing ? Integer.parseInt(args[4]) : 0;
        String writer = keep > 0 ? PADDED_WRITER : WRITER;
        try (var provider = FileStorage.builder(FileStorageConfig.custom()
                                .directory(root)
                                .journal(true)
                                .fsync(true)
                                .build())
                        .build();
                var progress = new java.io.FileOutputStream(progressFile.toFile(), true)) {
            for (long version = first; version < first + 1_000_000; version++) {
                provider.saveCheckpoint(
                        agentId,
                        growing
                                ? TestCheckpoints.growing(agentId, version)
                                : TestCheckpoints.checkpoint(agentId, version, "cp-" + version, writer));
                progress.write(("saved " + version + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                if (keep > 0) {
                    provider.deleteCheckpointsBefore(agentId, version - keep + 1);
                }
            }
        }
    }
}
