package dev.agentpersistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.storage.StorageShell;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A save that states its head ({@code saveCheckpointAfter}) checks the head and inserts in one transaction that holds
 * the newest row: while another transaction deletes the agent's rows and has not committed, the save waits, and once
 * the deletion commits it is refused and stores nothing. A check made outside the insert's transaction would read the
 * rows the deletion has not yet removed and store its checkpoint in the emptied agent.
 */
class ConditionalSaveLockTest {
    @TempDir
    Path dir;

    static Stream<Arguments> databases() {
        return Stream.of(
                Arguments.of("PostgreSQL", (Function<Path, TestDatabase>) dir -> TestDatabase.postgres()),
                Arguments.of("MariaDB", (Function<Path, TestDatabase>) dir -> TestDatabase.mariaDb()),
                Arguments.of("SQLite", (Function<Path, TestDatabase>) TestDatabase::sqlite),
                Arguments.of("H2", (Function<Path, TestDatabase>) TestDatabase::h2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aSaveOnAHeadThatAnUncommittedDeletionRemovesWaitsAndIsRefused(String name, Function<Path, TestDatabase> open)
            throws Exception {
        try (TestDatabase database = open.apply(dir);
                StorageShell provider = database.newProvider()) {
            AgentCheckpoint v0 = checkpoint(0);
            AgentCheckpoint v1 = checkpoint(1);
            provider.saveCheckpointAfter("a", Optional.empty(), v0);
            provider.saveCheckpointAfter("a", Optional.of(v0), v1);

            try (Connection deleter = database.connect()) {
                deleter.setAutoCommit(false);
                try (PreparedStatement delete = deleter.prepareStatement(
                        "DELETE FROM " + database.tables().checkpoints() + " WHERE agent_id = ?")) {
                    delete.setString(1, "a");
                    assertThat(delete.executeUpdate()).isEqualTo(2);
                }
                CompletableFuture<Void> save = CompletableFuture.runAsync(
                        () -> provider.saveCheckpointAfter("a", Optional.of(v1), checkpoint(2)));
                Thread.sleep(300);
                assertThat(save)
                        .as("the save waits for the deletion's transaction")
                        .isNotDone();
                deleter.commit();

                assertThat(refusal(save)).isInstanceOf(CheckpointConflictException.class);
            }
            assertThat(provider.getCheckpoints("a")).isEmpty();
        }
    }

    private static Throwable refusal(CompletableFuture<Void> save) throws Exception {
        try {
            save.get(30, TimeUnit.SECONDS);
            throw new AssertionError("the save on a deleted head was stored");
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    private static AgentCheckpoint checkpoint(long version) {
        return SaveStatementsTest.checkpoint(version, Map.of());
    }
}
