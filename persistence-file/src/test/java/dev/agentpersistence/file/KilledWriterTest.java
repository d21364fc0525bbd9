package dev.agentpersistence.file;

import static dev.agentpersistence.file.TestCheckpoints.checkpoint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.file.internal.FileNames;
import dev.agentpersistence.tck.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer process killed between reserving a checkpoint id and publishing it: while it runs, its reservation is
 * respected; once it is dead, saving the same checkpoint again (an idempotent retry) takes the reservation over at once
 * instead of waiting for the grace period.
 */
class KilledWriterTest {
    static final String AGENT = "killed";
    static final Duration PROMPTLY = Duration.ofSeconds(2);

    @TempDir
    Path root;

    @TempDir
    Path signals;

    Path directory;
    ChildJvm child;
    AgentCheckpoint retried;

    @BeforeEach
    void reserveInAChildProcess() throws Exception {
        try (var provider = FilePerCheckpoint.provider(root)) {
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, 0));
        }
        directory = LayoutInspection.agentDirectory(root, AGENT);
        retried = checkpoint(AGENT, 1, "cp-retried", "first attempt");
        Path ready = signals.resolve("ready");
        child = ChildJvm.start(
                ReservingWriter.class, root.toString(), AGENT, "1", "cp-retried", "first attempt", ready.toString());
        child.awaitFile(ready, Duration.ofSeconds(60));
        Path temp = directory.resolve(Files.readString(ready).trim());
        assertThat(Files.isSameFile(
                        temp, directory.resolve(FileNames.IDS_DIRECTORY).resolve("cp-retried")))
                .as("the child holds the reservation through its temporary file")
                .isTrue();
    }

    @AfterEach
    void killChild() throws Exception {
        child.close();
    }

    @Test
    void aRetryAfterTheWriterWasKilledTakesOverAtOnce() throws Exception {
        kill();
        // no clean-up on open: the writer itself must recognise the dead holder
        var config = FilePerCheckpoint.config(root).cleanUpOnOpen(false).build();
        try (var provider = FileStorage.builder(config).build()) {
            long started = System.nanoTime();
            provider.saveCheckpoint(AGENT, retried);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(PROMPTLY);
            assertThat(provider.getCheckpoint(AGENT, "cp-retried")).contains(retried);
            assertThat(provider.getCheckpoints(AGENT))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(0L, 1L);
            provider.saveCheckpoint(AGENT, retried); // identical again: a no-op
        }
        assertThat(LayoutInspection.names(directory)).noneMatch(FileNames::isScratch);
        assertThat(LayoutInspection.names(directory.resolve(FileNames.IDS_DIRECTORY)))
                .noneMatch(FileNames::isScratch);
    }

    @Test
    void openingTheStoreSweepsTheKilledWritersTemporaryFile() throws Exception {
        kill();
        try (var provider = FilePerCheckpoint.provider(root)) {
            assertThat(LayoutInspection.names(directory)).noneMatch(FileNames::isScratch);
            long started = System.nanoTime();
            provider.saveCheckpoint(AGENT, retried);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(PROMPTLY);
            assertThat(provider.getCheckpoint(AGENT, "cp-retried")).contains(retried);
        }
    }

    @Test
    void aLiveWritersReservationIsRespectedUntilItDies() throws Exception {
        try (var provider = FilePerCheckpoint.provider(root)) {
            // opening the store leaves the live writer's temporary file alone
            assertThat(LayoutInspection.names(directory)).anyMatch(name -> name.startsWith(FileNames.TEMP_PREFIX));
            var retry = CompletableFuture.runAsync(() -> provider.saveCheckpoint(AGENT, retried));
            TimeUnit.MILLISECONDS.sleep(700);
            assertThat(retry).as("waits while the holder runs").isNotDone();
            assertThat(provider.getCheckpoint(AGENT, "cp-retried")).isEmpty();
            kill();
            long killed = System.nanoTime();
            retry.get(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(Duration.ofNanos(System.nanoTime() - killed)).isLessThan(PROMPTLY);
            assertThat(provider.getCheckpoint(AGENT, "cp-retried")).contains(retried);
            assertThat(provider.getCheckpoints(AGENT))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(0L, 1L);
        }
        assertThat(LayoutInspection.names(directory)).noneMatch(FileNames::isScratch);
    }

    private void kill() throws Exception {
        child.kill();
    }
}
