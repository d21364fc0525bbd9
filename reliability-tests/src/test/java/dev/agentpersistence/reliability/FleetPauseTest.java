package dev.agentpersistence.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.pipeline.QueuedRun;
import dev.agentpersistence.pipeline.RunBusyException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker JVM stopped with SIGSTOP inside a node, right after its tool inserted a row, for longer than its lease:
 * another worker JVM takes the run over, undoes the stopped attempt's row and finishes the run; then the stopped JVM
 * gets SIGCONT and goes on where it was. Its save is refused ({@link RunBusyException}), it notices the lost lease and
 * records no outcome; the run's checkpoints, the queue log and the effects table stay as the new owner left them; the
 * stopped attempt's row was deleted exactly once, by the new owner's undo; the stopped runner abandons its attempt as
 * it stands: it calls no inverse tool and writes nothing to the run's tool journal. On PostgreSQL (the store and the
 * table) and on Redis (the store).
 */
class FleetPauseTest {
    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration POLL = Duration.ofMillis(100);
    /** How long the paused node sleeps after its insert: the stop falls inside it, the lease runs out meanwhile. */
    private static final Duration PAUSE = Duration.ofSeconds(1);

    private Path dir;
    private Backends backends;

    @BeforeEach
    void createDir() throws Exception {
        dir = Ids.scratch("fleet-pause");
        backends = new Backends(dir);
    }

    @AfterEach
    void deleteDir() throws Exception {
        backends.close();
        Ids.delete(dir);
    }

    @Test
    @Timeout(300)
    void postgres() throws Exception {
        pausedWorkerWritesNothing(backends.postgres());
    }

    @Test
    @Timeout(300)
    void redis() throws Exception {
        pausedWorkerWritesNothing(backends.redis());
    }

    private void pausedWorkerWritesNothing(Backend backend) throws Exception {
        try (var fleet = new Fleet(backend, dir, LEASE, POLL, 1)) {
            String run = fleet.submit(1).get(0);
            var paused = fleet.start("paused", fleet.pipeline, PAUSE);
            paused.jvm().awaitLine("PAUSE-POINT " + run, Duration.ofSeconds(60));
            Fleet.signal(paused, "STOP");
            long stoppedAt = System.nanoTime();
            var stoppedRow = fleet.effects.rows().stream()
                    .filter(row -> row.node().equals(FleetPipeline.PAUSED_NODE))
                    .toList();
            assertThat(stoppedRow)
                    .as("the stopped attempt's insert is in the table")
                    .singleElement()
                    .satisfies(row -> assertThat(row.worker()).isEqualTo("paused"));
            String stoppedKey = stoppedRow.get(0).key();

            var taker = fleet.start("taker", null, Duration.ZERO);
            awaitCompleted(fleet, run, Duration.ofSeconds(120));
            long takenOverMillis = (System.nanoTime() - stoppedAt) / 1_000_000;
            assertThat(taker.jvm().lines())
                    .as("the taker recovered the run")
                    .anyMatch(line -> line.startsWith("CLAIMED " + run + " ") && !line.endsWith(" -1"));
            FleetRecords.assertCompletedOnce(fleet.storage, run);
            var checkpoints = ids(FleetRecords.checkpoints(fleet.storage, run));
            var journal = ids(fleet.storage.getCheckpoints(AgentNamespace.TOOL_JOURNALS.agentId(run)));
            var queueLog = FleetRecords.queueLog(fleet.storage, fleet.pipeline);
            var rows = fleet.effects.rows();
            var undos = fleet.effects.undos();
            assertThat(rows).extracting(FleetEffects.Row::key).doesNotContain(stoppedKey);
            assertThat(rows).hasSize(FleetPipeline.NODES);

            Fleet.signal(paused, "CONT");
            paused.jvm().awaitLine("RELEASED " + run, Duration.ofSeconds(60));
            Thread.sleep(LEASE.toMillis()); // anything it would still write after letting go of the run

            assertThat(ids(FleetRecords.checkpoints(fleet.storage, run)))
                    .as("the run's checkpoints")
                    .isEqualTo(checkpoints);
            var journalAfter = fleet.storage.getCheckpoints(AgentNamespace.TOOL_JOURNALS.agentId(run));
            var journalAdded = journalAfter.stream()
                    .filter(entry -> !journal.contains(entry.version() + ":" + entry.checkpointId()))
                    .toList();
            assertThat(journalAdded)
                    .as("journal entries written after SIGCONT: none (the overtaken attempt is abandoned as it stands)")
                    .isEmpty();
            assertThat(FleetRecords.queueLog(fleet.storage, fleet.pipeline))
                    .as("the queue log")
                    .isEqualTo(queueLog);
            assertThat(fleet.effects.rows()).as("the effects table").isEqualTo(rows);
            assertThat(fleet.queue.runs())
                    .singleElement()
                    .satisfies(queued -> assertThat(queued.status()).isEqualTo(QueuedRun.Status.COMPLETED));
            var undosOfStopped = fleet.effects.undos().stream()
                    .filter(undo -> undo.key().equals(stoppedKey))
                    .toList();
            assertThat(undosOfStopped)
                    .as("the stopped attempt's row was deleted once, by the new owner")
                    .filteredOn(undo -> undo.deleted() > 0)
                    .singleElement()
                    .satisfies(undo -> assertThat(undo.worker()).isEqualTo("taker"));
            assertThat(undosOfStopped)
                    .as("the stopped worker does not undo its own attempt")
                    .hasSize(1);
            assertThat(fleet.effects.undos())
                    .as("undo calls after SIGCONT: none")
                    .hasSize(undos.size());
            assertThat(paused.jvm().lines())
                    .as("the stopped worker noticed it lost the lease")
                    .anyMatch(line -> line.startsWith("LOST " + run + " "));
            assertThat(paused.jvm().errors())
                    .as("its save was refused and it left the outcome to the new owner")
                    .anyMatch(line -> line.contains("ended with " + RunBusyException.class.getName()))
                    .anyMatch(line -> line.contains("while running it; its new owner records the outcome"));
            Figures.record(
                    "worker SIGSTOPped past its lease",
                    backend.label(),
                    "completed by another worker " + takenOverMillis + " ms after SIGSTOP; after SIGCONT its save was"
                            + " refused and checkpoints, queue log and table stayed as they were; the stopped"
                            + " attempt's row deleted once (by the new owner); undo calls of it: "
                            + undosOfStopped.size() + "; journal entries the stopped worker wrote after SIGCONT: "
                            + journalAdded.size());
        }
    }

    private static List<String> ids(List<AgentCheckpoint> checkpoints) {
        return checkpoints.stream()
                .map(cp -> cp.version() + ":" + cp.checkpointId())
                .toList();
    }

    private static void awaitCompleted(Fleet fleet, String run, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (FleetRecords.queueEntries(fleet.storage, fleet.pipeline, "COMPLETED")
                    .containsKey(run)) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("run " + run + " did not complete within " + timeout + ": " + fleet.queue.runs());
    }
}
