package dev.agentpersistence.file;

import static dev.agentpersistence.file.TestCheckpoints.checkpoint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deletions in a journal: cuts, compaction once cut records outweigh live ones, and removal of the whole journal, seen
 * by the writing provider and by other provider instances reading meanwhile.
 */
class JournalCompactionTest {
    static final String AGENT = "agent";
    /**
     * Makes each record about a kilobyte, so 300 of them are far above the compaction threshold: random hex, which
     * compression cannot shrink.
     */
    static final String PADDING = java.util.HexFormat.of().formatHex(randomBytes(300));

    private static byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        new java.util.Random(20_261_202L).nextBytes(bytes);
        return bytes;
    }

    @TempDir
    Path root;

    static AgentCheckpoint padded(long version) {
        return checkpoint(AGENT, version, "cp-" + version, PADDING);
    }

    @Test
    void savingAndDeletingTheOlderOnesKeepsTheJournalSmall() throws Exception {
        Path journal = JournalFiles.journal(root, AGENT);
        long appended = 0;
        long largest = 0;
        try (var provider = FileStorage.builder(root).build()) {
            for (int version = 0; version < 300; version++) {
                long before = Files.exists(journal) ? Files.size(journal) : JournalFiles.FILE_HEADER_SIZE;
                provider.saveCheckpoint(AGENT, padded(version));
                appended += Files.size(journal) - before;
                provider.deleteCheckpointsBefore(AGENT, version);
                largest = Math.max(largest, Files.size(journal));
            }
            assertThat(appended).as("the checkpoint records written").isGreaterThan(250 * 1024);
            assertThat(largest)
                    .as("the journal never grows far beyond the compaction threshold")
                    .isLessThan(96 * 1024)
                    .isLessThan(appended / 2);
            assertThat(provider.getLatestCheckpoint(AGENT)).contains(padded(299));
            assertThat(provider.getCheckpoints(AGENT)).containsExactly(padded(299));
            for (int version = 0; version < 299; version++) {
                assertThat(provider.getCheckpoint(AGENT, "cp-" + version))
                        .as("deleted cp-%s", version)
                        .isEmpty();
            }
            var reused = checkpoint(AGENT, 300, "cp-5", PADDING);
            provider.saveCheckpoint(AGENT, reused);
            assertThat(provider.getCheckpoint(AGENT, "cp-5")).contains(reused);
            assertThat(provider.getCheckpoints(AGENT)).containsExactly(padded(299), reused);
        }
        try (var fresh = FileStorage.builder(root).build()) {
            assertThat(fresh.getCheckpoints(AGENT))
                    .extracting(AgentCheckpoint::checkpointId)
                    .containsExactly("cp-299", "cp-5");
        }
        assertThat(JournalFiles.checkpoints(journal)).allMatch(JournalFiles.Rec::intact);
        assertThat(LayoutInspection.names(journal.getParent())).noneMatch(name -> name.startsWith(".tmp-"));
    }

    @Test
    void readersOfAnotherInstanceNeverMissTheNewestSaveWhileTheWriterCompacts() throws Exception {
        readersNeverMissTheNewestSaveWhileTheWriterCompacts(false);
    }

    @Test
    void readersOfTheWritingInstanceNeverMissTheNewestSaveWhileItCompacts() throws Exception {
        readersNeverMissTheNewestSaveWhileTheWriterCompacts(true);
    }

    private void readersNeverMissTheNewestSaveWhileTheWriterCompacts(boolean sameInstance) throws Exception {
        int versions = 1500;
        var completed = new AtomicLong(-1);
        var done = new AtomicBoolean();
        var failures = new ConcurrentLinkedQueue<String>();
        var reads = new AtomicInteger();
        var writerConfig =
                FileStorageConfig.custom().directory(root).fsync(false).build();
        try (var writer = FileStorage.builder(writerConfig).build();
                var other = FileStorage.builder(root).build()) {
            var reader = sameInstance ? writer : other;
            writer.saveCheckpoint(AGENT, padded(0));
            completed.set(0);
            var readers = new ArrayList<CompletableFuture<Void>>();
            for (int thread = 0; thread < 3; thread++) {
                int kind = thread;
                readers.add(CompletableFuture.runAsync(() -> {
                    while (!done.get()) {
                        long newest = completed.get();
                        try {
                            switch (kind) {
                                case 0 -> {
                                    var latest = reader.getLatestCheckpoint(AGENT);
                                    if (latest.isEmpty() || latest.get().version() < newest) {
                                        failures.add("latest " + latest.map(AgentCheckpoint::version) + " < " + newest);
                                    }
                                }
                                case 1 -> {
                                    var found = reader.getCheckpoint(AGENT, "cp-" + newest);
                                    if (found.isEmpty() && completed.get() == newest) {
                                        failures.add("cp-" + newest + " missing while it was the newest");
                                    } else if (found.isPresent() && found.get().version() != newest) {
                                        failures.add("cp-" + newest + " read as version "
                                                + found.get().version());
                                    }
                                }
                                default -> {
                                    List<AgentCheckpoint> listed = reader.getCheckpoints(AGENT);
                                    if (listed.isEmpty()
                                            || listed.get(listed.size() - 1).version() < newest) {
                                        failures.add("list "
                                                + listed.stream()
                                                        .map(AgentCheckpoint::version)
                                                        .toList() + " misses " + newest);
                                    }
                                    var limited = reader.getCheckpoints(
                                            AGENT,
                                            CheckpointFilter.builder().limit(1).build());
                                    if (limited.size() != 1 || limited.get(0).version() < newest) {
                                        failures.add("limit 1 gave "
                                                + limited.stream()
                                                        .map(AgentCheckpoint::version)
                                                        .toList() + " with " + newest + " saved");
                                    }
                                }
                            }
                        } catch (RuntimeException e) {
                            failures.add(kind + ": " + e);
                        }
                        reads.incrementAndGet();
                    }
                }));
            }
            try {
                for (int version = 1; version < versions; version++) {
                    writer.saveCheckpoint(AGENT, padded(version));
                    completed.set(version);
                    writer.deleteCheckpointsBefore(AGENT, version);
                }
            } finally {
                done.set(true);
                CompletableFuture.allOf(readers.toArray(CompletableFuture[]::new))
                        .get(60, TimeUnit.SECONDS);
            }
            assertThat(failures).as("after %s reads", reads.get()).isEmpty();
            assertThat(reads.get()).isGreaterThan(100);
            assertThat(reader.getCheckpoints(AGENT)).containsExactly(padded(versions - 1));
        }
    }

    /**
     * Checkpoints of about 20 KB, so every few deletions compact the journal, while threads of the same provider
     * instance read the newest checkpoint by id, the latest, and the list: none of them may find the journal empty in
     * the moment after a compaction.
     */
    @Test
    void readersOfTheWritingInstanceNeverFindTheJournalEmptyRightAfterACompaction() throws Exception {
        String big = "q".repeat(20_000);
        var completed = new AtomicLong(-1);
        var done = new AtomicBoolean();
        var failures = new ConcurrentLinkedQueue<String>();
        var config = FileStorageConfig.custom().directory(root).fsync(false).build();
        try (var provider = FileStorage.builder(config).build()) {
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 0, "cp-0", big));
            completed.set(0);
            var readers = new ArrayList<CompletableFuture<Void>>();
            for (int thread = 0; thread < 6; thread++) {
                int kind = thread % 3;
                readers.add(CompletableFuture.runAsync(() -> {
                    while (!done.get() && failures.size() < 10) {
                        long newest = completed.get();
                        switch (kind) {
                            case 0 -> {
                                if (provider.getCheckpoint(AGENT, "cp-" + newest)
                                                .isEmpty()
                                        && completed.get() == newest) {
                                    failures.add("cp-" + newest + " not found while it was the newest");
                                }
                            }
                            case 1 -> {
                                if (provider.getLatestCheckpoint(AGENT).isEmpty()) {
                                    failures.add("no latest with " + newest + " saved");
                                }
                            }
                            default -> {
                                if (provider.getCheckpoints(AGENT).isEmpty()) {
                                    failures.add("an empty list with " + newest + " saved");
                                }
                            }
                        }
                    }
                }));
            }
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
                for (int version = 1; System.nanoTime() < deadline && failures.isEmpty(); version++) {
                    provider.saveCheckpoint(AGENT, checkpoint(AGENT, version, "cp-" + version, big));
                    completed.set(version);
                    provider.deleteCheckpointsBefore(AGENT, version);
                }
            } finally {
                done.set(true);
                CompletableFuture.allOf(readers.toArray(CompletableFuture[]::new))
                        .get(60, TimeUnit.SECONDS);
            }
            assertThat(failures).isEmpty();
        }
    }

    @Test
    void deletingEveryCheckpointRemovesTheJournalAndTheAgent() throws Exception {
        Path journal = JournalFiles.journal(root, AGENT);
        try (var provider = FileStorage.builder(root).build()) {
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 0));
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 1));
            provider.saveCheckpoint("other", checkpoint("other", 0));
            assertThat(provider.deleteCheckpoints(AGENT)).isEqualTo(2);
            assertThat(journal).doesNotExist();
            assertThat(provider.listAgents()).containsExactly("other");
            assertThat(provider.getLatestCheckpoint(AGENT)).isEmpty();
            assertThat(provider.getCheckpoint(AGENT, "cp-1")).isEmpty();

            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 7));
            assertThat(journal).exists();
            assertThat(provider.getCheckpoints(AGENT)).containsExactly(checkpoint(AGENT, 7));
            assertThat(provider.listAgents()).containsExactlyInAnyOrder(AGENT, "other");
            assertThat(LayoutInspection.names(journal.getParent())).noneMatch(name -> name.endsWith(".checkpoint"));
        }
    }

    @Test
    void deletingBeforeTheNewestOfAllRemovesTheJournalToo() {
        Path journal = JournalFiles.journal(root, AGENT);
        try (var provider = FileStorage.builder(root).build()) {
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 0));
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 1));
            assertThat(provider.deleteCheckpointsBefore(AGENT, 2)).isEqualTo(2);
            assertThat(provider.getLatestCheckpoint(AGENT)).isEmpty();
            assertThat(provider.listAgents()).isEmpty();
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 0));
            assertThat(provider.getCheckpoints(AGENT)).containsExactly(checkpoint(AGENT, 0));
        }
        assertThat(JournalFiles.checkpoints(journal))
                .extracting(JournalFiles.Rec::version)
                .containsExactly(0L);
    }

    @Test
    void anotherInstanceReadsTheNewJournalAfterTheOldOneWasDeleted() {
        try (var writer = FileStorage.builder(root).build();
                var reader = FileStorage.builder(root).build()) {
            writer.saveCheckpoint(AGENT, checkpoint(AGENT, 0));
            writer.saveCheckpoint(AGENT, checkpoint(AGENT, 1));
            assertThat(reader.getCheckpoints(AGENT)).hasSize(2);
            writer.deleteCheckpoints(AGENT);
            assertThat(reader.getLatestCheckpoint(AGENT)).isEmpty();
            writer.saveCheckpoint(AGENT, checkpoint(AGENT, 5, "cp-5", "new"));
            assertThat(reader.getCheckpoints(AGENT)).containsExactly(checkpoint(AGENT, 5, "cp-5", "new"));
            assertThat(reader.getCheckpoint(AGENT, "cp-0")).isEmpty();
            assertThat(reader.getCheckpoint(AGENT, "cp-5")).contains(checkpoint(AGENT, 5, "cp-5", "new"));
        }
    }

    /** The new journal has exactly the size of the old one (and, on this file system, usually its identity). */
    @Test
    void anotherInstanceReadsTheNewJournalOfTheSameSize() throws Exception {
        readsTheNewJournalOfTheSameSize(false);
    }

    /**
     * The new journal has exactly the size of the old one, the old one's identity (the file system usually reuses the
     * inode; when it does not, the reader notices the change from that alone) and the same modification time, as on a
     * file system whose timestamps are coarser than the time between the two writes: the reader must still read the new
     * content (its file header names another generation).
     */
    @Test
    void anotherInstanceReadsTheNewJournalOfTheSameSizeIdentityAndTime() throws Exception {
        readsTheNewJournalOfTheSameSize(true);
    }

    private void readsTheNewJournalOfTheSameSize(boolean sameTime) throws Exception {
        Path journal = JournalFiles.journal(root, AGENT);
        var old0 = checkpoint(AGENT, 0, "cp-a", "old");
        var old1 = checkpoint(AGENT, 1, "cp-b", "old");
        var new0 = checkpoint(AGENT, 0, "cp-c", "new");
        var new1 = checkpoint(AGENT, 1, "cp-d", "new");
        try (var writer = FileStorage.builder(root).build();
                var reader = FileStorage.builder(root).build()) {
            writer.saveCheckpoint(AGENT, old0);
            writer.saveCheckpoint(AGENT, old1);
            assertThat(reader.getCheckpoints(AGENT)).containsExactly(old0, old1);
            assertThat(reader.getCheckpoint(AGENT, "cp-a")).contains(old0);
            long oldSize = Files.size(journal);
            FileTime oldTime = Files.getLastModifiedTime(journal);
            Object oldKey = fileKey(journal);

            writer.deleteCheckpoints(AGENT);
            writer.saveCheckpoint(AGENT, new0);
            writer.saveCheckpoint(AGENT, new1);
            assertThat(Files.size(journal)).isEqualTo(oldSize);
            if (sameTime) {
                Files.setLastModifiedTime(journal, oldTime);
            }

            assertThat(reader.getCheckpoint(AGENT, "cp-c"))
                    .as(
                            "cp-c, the new journal %s the old one's identity",
                            oldKey.equals(fileKey(journal)) ? "keeping" : "not keeping")
                    .contains(new0);
            assertThat(reader.getCheckpoint(AGENT, "cp-d")).contains(new1);
            assertThat(reader.getCheckpoint(AGENT, "cp-a")).isEmpty();
            assertThat(reader.getLatestCheckpoint(AGENT)).contains(new1);
            assertThat(reader.getCheckpoints(AGENT)).containsExactly(new0, new1);
        }
    }

    private static Object fileKey(Path file) throws java.io.IOException {
        return Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class)
                .fileKey();
    }
}
