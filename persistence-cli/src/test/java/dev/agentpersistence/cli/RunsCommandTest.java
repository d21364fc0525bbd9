package dev.agentpersistence.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.pipeline.PipelineQueue;
import dev.agentpersistence.pipeline.QueuedRun;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code runs list|cancel|retry} over a pipeline's durable queue in a SQLite store. */
class RunsCommandTest {
    @TempDir
    Path directory;

    @Test
    void listsCancelsAndRequeuesRunsOfAPipelinesQueue() {
        Path database = directory.resolve("runs.db");
        String store = "jdbc:sqlite:" + database;
        try (var storage = JdbcStorage.builder(
                        JdbcStorageConfig.custom().url(store).build())
                .build()) {
            var queue = PipelineQueue.of(storage, "orders", Clock.systemUTC());
            queue.submit("order-1", JsonNodeFactory.instance.objectNode());
            queue.submit("order-2", JsonNodeFactory.instance.objectNode());
        }

        CliRun list = CliRun.of("runs", "list", "--pipeline", "orders", "--store", store);
        assertThat(list.exitCode()).as("%s", list).isZero();
        assertThat(list.out()).contains("order-1").contains("order-2").contains("queued");

        CliRun cancel = CliRun.of("runs", "cancel", "order-1", "--pipeline", "orders", "--store", store);
        assertThat(cancel.exitCode()).as("%s", cancel).isZero();
        CliRun again = CliRun.of("runs", "cancel", "order-1", "--pipeline", "orders", "--store", store);
        assertThat(again.exitCode()).as("%s", again).isEqualTo(ExitCode.NOT_FOUND);
        assertThat(again.err().lines().count()).isEqualTo(1);

        CliRun json = CliRun.of("runs", "list", "--pipeline", "orders", "--json", "--store", store);
        assertThat(json.out()).contains("\"runId\":\"order-1\",\"status\":\"cancelled\"");

        CliRun retry = CliRun.of("runs", "retry", "order-1", "--pipeline", "orders", "--store", store);
        assertThat(retry.exitCode()).as("%s", retry).isZero();
        try (var storage = JdbcStorage.builder(
                        JdbcStorageConfig.custom().url(store).build())
                .build()) {
            assertThat(PipelineQueue.of(storage, "orders", Clock.systemUTC()).runs())
                    .extracting(QueuedRun::status)
                    .containsExactly(QueuedRun.Status.QUEUED, QueuedRun.Status.QUEUED);
        }
    }

    @Test
    void listingAStoreThatDoesNotExistCreatesNothing() {
        Path database = directory.resolve("missing.db");
        CliRun list = CliRun.of("runs", "list", "--pipeline", "orders", "--store", "jdbc:sqlite:" + database);
        assertThat(list.exitCode()).as("%s", list).isEqualTo(ExitCode.NOT_FOUND);
        assertThat(database).doesNotExist();
    }
}
