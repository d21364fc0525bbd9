package dev.agentpersistence.file;

import static dev.agentpersistence.file.TestCheckpoints.T0;
import static dev.agentpersistence.file.TestCheckpoints.checkpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.InvalidIdentifierException;
import dev.agentpersistence.Message;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The storage contract, on files. */
class FileStorageProviderTest {
    static final String AGENT = "agent-1";

    @TempDir
    Path root;
    FileStorageProvider provider;

    @BeforeEach
    void open() {
        provider = FileStorageProvider.of(FileStorageConfig.custom().directory(root).build());
    }

    @AfterEach
    void close() {
        provider.close();
    }

    @Test
    void roundTripsEveryFieldToTheNanosecond() {
        var big = new StringBuilder();
        for (int i = 0; i < 1 << 20; i++) {
            big.append((char) ('a' + i % 26));
        }
        var builder = AgentCheckpoint.builder().checkpointId("full").agentId(AGENT).version(7)
                .createdAt(T0).nodeId("n").lastInput(JsonNodeFactory.instance.objectNode().put("q", 1.5))
                .lastInputType("Question").state("big", JsonNodeFactory.instance.textNode(big.toString()))
                .metadata("k", "v").parentCheckpointId("parent");
        var history = new ArrayList<Message>();
        for (int i = 0; i < 10_000; i++) {
            history.add(i % 2 == 0 ? Message.user("u" + i) : Message.assistant("a" + i));
        }
        AgentCheckpoint full = builder.messageHistory(history).build();
        provider.saveCheckpoint(AGENT, full);

        assertThat(provider.getCheckpoint(AGENT, "full")).contains(full);
        assertThat(provider.getLatestCheckpoint(AGENT)).contains(full);
        try (var other = FileStorageProvider.of(root)) {
            assertThat(other.getCheckpoints(AGENT)).containsExactly(full);
        }
    }

    @Test
    void listsAscendingAndFindsLatestByVersion() {
        for (long version : new long[] {5, 0, 12, 3, 100}) {
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, version));
        }
        assertThat(provider.getCheckpoints(AGENT)).extracting(AgentCheckpoint::version).containsExactly(0L, 3L, 5L, 12L, 100L);
        assertThat(provider.getLatestCheckpoint(AGENT)).map(AgentCheckpoint::version).contains(100L);
        assertThat(provider.getCheckpoints("nobody")).isEmpty();
        assertThat(provider.getLatestCheckpoint("nobody")).isEmpty();
        assertThat(provider.getCheckpoint("nobody", "cp-0")).isEmpty();
    }

    @Test
    void filtersOnEveryFieldAndKeepsTheNewestWithinTheLimit() {
        for (int version = 0; version < 10; version++) {
            var checkpoint = checkpoint(AGENT, version).toBuilder()
                    .nodeId(version % 2 == 0 ? "even" : "odd")
                    .metadata("parity", version % 2 == 0 ? "even" : "odd")
                    .build();
            provider.saveCheckpoint(AGENT, checkpoint);
        }
        provider.saveCheckpoint(AGENT, AgentCheckpoint.tombstone(AGENT, 10, T0.plusSeconds(10)));

        assertThat(versions(CheckpointFilter.builder().nodeId("even").build())).containsExactly(0L, 2L, 4L, 6L, 8L);
        assertThat(versions(CheckpointFilter.builder().metadata("parity", "odd").build())).containsExactly(1L, 3L, 5L, 7L, 9L);
        assertThat(versions(CheckpointFilter.builder().createdAfter(T0.plusSeconds(8)).build())).containsExactly(8L, 9L, 10L);
        assertThat(versions(CheckpointFilter.builder().createdBefore(T0.plusSeconds(2)).build())).containsExactly(0L, 1L);
        assertThat(versions(CheckpointFilter.builder().maxVersion(3L).build())).containsExactly(0L, 1L, 2L, 3L);
        assertThat(versions(CheckpointFilter.builder().limit(3).build())).containsExactly(8L, 9L, 10L);
        assertThat(versions(CheckpointFilter.builder().includeTombstones(false).limit(2).build())).containsExactly(8L, 9L);
        assertThat(versions(CheckpointFilter.builder().nodeId("odd").maxVersion(6L).limit(2).build())).containsExactly(3L, 5L);
        assertThat(versions(CheckpointFilter.builder().createdAfter(T0.plusSeconds(2)).createdBefore(T0.plusSeconds(7))
                .metadata("parity", "even").build())).containsExactly(2L, 4L, 6L);
        assertThat(provider.getLatestCheckpoint(AGENT, CheckpointFilter.builder().includeTombstones(false).build()))
                .map(AgentCheckpoint::version).contains(9L);
        assertThat(provider.getLatestCheckpoint(AGENT, CheckpointFilter.builder().nodeId("none").build())).isEmpty();
    }

    @Test
    void findsACheckpointById() {
        provider.saveCheckpoint(AGENT, checkpoint(AGENT, 0));
        provider.saveCheckpoint(AGENT, checkpoint(AGENT, 1));
        assertThat(provider.getCheckpoint(AGENT, "cp-1")).contains(checkpoint(AGENT, 1));
        assertThat(provider.getCheckpoint(AGENT, "cp-9")).isEmpty();
        assertThat(provider.getCheckpoint("other", "cp-1")).isEmpty();
    }

    @Test
    void rejectsAnotherCheckpointAtTheSameVersionOrIdAndIgnoresAnIdenticalResave() {
        AgentCheckpoint original = checkpoint(AGENT, 1);
        provider.saveCheckpoint(AGENT, original);
        provider.saveCheckpoint(AGENT, original);

        assertThatThrownBy(() -> provider.saveCheckpoint(AGENT, checkpoint(AGENT, 1, "other-id", "test")))
                .isInstanceOf(CheckpointConflictException.class).hasMessageContaining("version 1");
        assertThatThrownBy(() -> provider.saveCheckpoint(AGENT, checkpoint(AGENT, 2, "cp-1", "test")))
                .isInstanceOf(CheckpointConflictException.class).hasMessageContaining("cp-1");
        assertThatThrownBy(() -> provider.saveCheckpoint(AGENT, checkpoint(AGENT, 1, "cp-1", "someone else")))
                .isInstanceOf(CheckpointConflictException.class);

        assertThat(provider.getCheckpoints(AGENT)).containsExactly(original);
        assertThat(provider.getCheckpoint(AGENT, "other-id")).isEmpty();
        // the losers left nothing behind: the id and the version are free for their rightful use
        provider.saveCheckpoint(AGENT, checkpoint(AGENT, 2, "other-id", "test"));
        assertThat(provider.getCheckpoint(AGENT, "other-id")).map(AgentCheckpoint::version).contains(2L);
    }

    @Test
    void rejectsACheckpointOfAnotherAgentAndInvalidIds() {
        assertThatThrownBy(() -> provider.saveCheckpoint("someone", checkpoint(AGENT, 0)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> provider.getCheckpoints("")).isInstanceOf(InvalidIdentifierException.class);
        assertThatThrownBy(() -> provider.getCheckpoint(AGENT, "a\nb")).isInstanceOf(InvalidIdentifierException.class);
        assertThatThrownBy(() -> provider.deleteCheckpoints(null)).isInstanceOf(InvalidIdentifierException.class);
    }

    @Test
    void deletesAllOrOlderCheckpointsAndListsAgentsWithCheckpoints() {
        for (int version = 0; version < 5; version++) {
            provider.saveCheckpoint(AGENT, checkpoint(AGENT, version));
            provider.saveCheckpoint("b", checkpoint("b", version));
        }
        provider.saveCheckpoint("a", checkpoint("a", 0));
        assertThat(provider.listAgents()).containsExactly("a", AGENT, "b");

        assertThat(provider.deleteCheckpointsBefore(AGENT, 3)).isEqualTo(3);
        assertThat(provider.deleteCheckpointsBefore(AGENT, 3)).isZero();
        assertThat(provider.getCheckpoints(AGENT)).extracting(AgentCheckpoint::version).containsExactly(3L, 4L);
        assertThat(provider.getCheckpoint(AGENT, "cp-1")).isEmpty();
        // a deleted id is free again
        provider.saveCheckpoint(AGENT, checkpoint(AGENT, 5, "cp-1", "test"));

        assertThat(provider.deleteCheckpoints("a")).isEqualTo(1);
        assertThat(provider.deleteCheckpoints("a")).isZero();
        assertThat(provider.deleteCheckpoints("never-saved")).isZero();
        assertThat(provider.listAgents()).containsExactly(AGENT, "b");
        assertThat(provider.getCheckpoints("b")).hasSize(5);

        provider.saveCheckpoint("a", checkpoint("a", 0)); // same id and version as the deleted one
        assertThat(provider.getCheckpoint("a", "cp-0")).isPresent();
    }

    @Test
    void sixteenThreadsRacingOnOneVersionHaveExactlyOneWinner() throws Exception {
        var pool = Executors.newFixedThreadPool(16);
        try {
            var start = new CountDownLatch(1);
            var futures = new ArrayList<Future<Boolean>>();
            for (int racer = 0; racer < 16; racer++) {
                String id = racer % 2 == 0 ? "shared-id" : "racer-" + racer;
                String writer = "racer-" + racer;
                futures.add(pool.submit(() -> {
                    start.await();
                    try {
                        provider.saveCheckpoint(AGENT, checkpoint(AGENT, 0, id, writer));
                        return true;
                    } catch (CheckpointConflictException e) {
                        return false;
                    }
                }));
            }
            start.countDown();
            int winners = 0;
            for (var future : futures) {
                winners += future.get(60, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(winners).isEqualTo(1);
            assertThat(provider.getCheckpoints(AGENT)).hasSize(1);
            AgentCheckpoint winner = provider.getCheckpoints(AGENT).get(0);
            assertThat(provider.getCheckpoint(AGENT, winner.checkpointId())).contains(winner);
            assertThat(LayoutInspection.idEntries(root, AGENT)).containsExactly(winner.checkpointId());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void everyCallAfterCloseThrows() {
        provider.saveCheckpoint(AGENT, checkpoint(AGENT, 0));
        provider.close();
        provider.close();
        List<Runnable> calls = List.of(
                () -> provider.saveCheckpoint(AGENT, checkpoint(AGENT, 1)),
                () -> provider.getCheckpoints(AGENT),
                () -> provider.getCheckpoints(AGENT, CheckpointFilter.ALL),
                () -> provider.getLatestCheckpoint(AGENT),
                () -> provider.getCheckpoint(AGENT, "cp-0"),
                () -> provider.deleteCheckpoints(AGENT),
                () -> provider.deleteCheckpointsBefore(AGENT, 1),
                provider::listAgents);
        for (Runnable call : calls) {
            assertThatThrownBy(call::run).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        }
    }

    private List<Long> versions(CheckpointFilter filter) {
        return provider.getCheckpoints(AGENT, filter).stream().map(AgentCheckpoint::version).toList();
    }
}
