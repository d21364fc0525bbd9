package dev.agentpersistence.file.internal;

import static dev.agentpersistence.file.internal.HeadCheckpoints.checkpoint;
import static dev.agentpersistence.file.internal.HeadCheckpoints.head;
import static dev.agentpersistence.file.internal.HeadCheckpoints.open;
import static dev.agentpersistence.file.internal.HeadCheckpoints.readHead;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers that share nothing but the directory — provider instances in one JVM, and two processes — save interleaved
 * versions in shuffled order (lower versions often finish last) while readers ask for the latest checkpoint: a read
 * never returns less than the highest version whose save had returned before the read began, and at the end the head
 * names the highest version.
 */
class HeadRaceTest {
    static final String AGENT = "raced-head";
    static final int VERSIONS = 400;

    @TempDir
    Path root;

    @TempDir
    Path signals;

    /** The versions writer {@code index} of {@code writers} saves, in a shuffled but repeatable order. */
    static List<Long> share(int index, int writers, int versions) {
        var share = new ArrayList<Long>();
        for (long version = index; version < versions; version += writers) {
            share.add(version);
        }
        Collections.shuffle(share, new Random(index));
        return share;
    }

    @Test
    void providerInstancesInOneJvm() throws Exception {
        var done = new AtomicLong(-1);
        var stop = new AtomicBoolean();
        var reads = new AtomicInteger();
        try (var first = open(root);
                var second = open(root);
                var reading = open(root)) {
            List<StorageShell> writers = List.of(first, second, first, second);
            var saves = new ArrayList<CompletableFuture<Void>>();
            for (int index = 0; index < writers.size(); index++) {
                StorageShell provider = writers.get(index);
                List<Long> versions = share(index, writers.size(), VERSIONS);
                saves.add(CompletableFuture.runAsync(() -> {
                    for (long version : versions) {
                        provider.saveCheckpoint(AGENT, checkpoint(AGENT, version, "w"));
                        done.accumulateAndGet(version, Math::max);
                    }
                }));
            }
            var readers = List.of(
                    CompletableFuture.runAsync(() -> readUntil(reading, done, stop, reads)),
                    CompletableFuture.runAsync(() -> readUntil(first, done, stop, reads)));
            CompletableFuture.allOf(saves.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            stop.set(true);
            CompletableFuture.allOf(readers.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            assertThat(reads.get()).as("reads made during the saves").isPositive();
            verifyEnd(reading);
        }
    }

    @Test
    void twoProcesses() throws Exception {
        Path ready = signals.resolve("ready");
        Path go = signals.resolve("go");
        try (var child = ChildJvm.start(
                        HeadRaceWriter.class,
                        root.toString(),
                        AGENT,
                        "1",
                        "2",
                        String.valueOf(VERSIONS),
                        ready.toString(),
                        go.toString());
                var provider = open(root);
                var reading = open(root)) {
            provider.saveCheckpoint("warm-up", checkpoint("warm-up", 0, "parent"));
            child.awaitFile(ready, Duration.ofSeconds(60));
            var done = new AtomicLong(-1);
            var stop = new AtomicBoolean();
            var reads = new AtomicInteger();
            var reader = CompletableFuture.runAsync(() -> readUntil(reading, done, stop, reads));
            Files.writeString(go, "go");
            for (long version : share(0, 2, VERSIONS)) {
                provider.saveCheckpoint(AGENT, checkpoint(AGENT, version, "parent"));
                done.accumulateAndGet(version, Math::max);
            }
            assertThat(child.waitFor(Duration.ofSeconds(120)))
                    .as("child exit: %s", child.output())
                    .isZero();
            assertThat(child.lines().stream().filter(line -> line.startsWith("saved ")))
                    .hasSize(VERSIONS / 2);
            stop.set(true);
            reader.get(30, TimeUnit.SECONDS);
            assertThat(reads.get()).isPositive();
            verifyEnd(reading);
        }
    }

    /** Reads the latest checkpoint until stopped; each read at least the highest version saved before it. */
    private static void readUntil(StorageShell provider, AtomicLong done, AtomicBoolean stop, AtomicInteger reads) {
        while (!stop.get()) {
            long before = done.get();
            long latest = provider.getLatestCheckpoint(AGENT)
                    .map(AgentCheckpoint::version)
                    .orElse(-1L);
            assertThat(latest)
                    .as("latest read after version %s was saved", before)
                    .isGreaterThanOrEqualTo(before);
            reads.incrementAndGet();
        }
    }

    private void verifyEnd(StorageShell provider) throws Exception {
        assertThat(provider.getCheckpoints(AGENT)).hasSize(VERSIONS);
        assertThat(readHead(root, AGENT)).contains(head(VERSIONS - 1));
        assertThat(provider.getLatestCheckpoint(AGENT))
                .map(AgentCheckpoint::version)
                .contains((long) VERSIONS - 1);
        assertThat(HeadCheckpoints.directory(root, AGENT).toFile().list())
                .noneMatch(name -> name.startsWith(FileNames.TEMP_PREFIX));
    }
}
