package dev.agentpersistence.pipeline;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A three-node pipeline over a SQLite file whose nodes append "run node" lines to a log file (so runs in other JVMs are
 * counted too), shared by the worker tests and the worker child process.
 */
final class WorkerFixture {
    static final StateCodec<List<String>> CODEC = StateCodec.jackson(new TypeReference<>() {});

    private WorkerFixture() {}

    static PersistenceStorageProvider<?> storage(Path dir) {
        return JdbcStorage.builder(JdbcStorageConfig.custom()
                        .url("jdbc:sqlite:" + dir.resolve("runs.db"))
                        .build())
                .build();
    }

    /** Nodes a, b, c; node b of a run whose id starts with {@code "hang"} blocks once {@code hang} is true. */
    static Pipeline<List<String>> pipeline(PersistenceStorageProvider<?> storage, Path log, boolean hang) {
        return Pipeline.builder("jobs", CODEC)
                .storage(storage)
                .node(Node.of("a", step("a", log, false)))
                .node(Node.of("b", step("b", log, hang)))
                .node(Node.of("c", step("c", log, false)))
                .build();
    }

    static List<String> executions(Path log) {
        try {
            return Files.exists(log) ? Files.readAllLines(log) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static NodeAction<List<String>> step(String node, Path log, boolean hang) {
        return context -> {
            String run = context.runId();
            synchronized (WorkerFixture.class) {
                Files.writeString(
                        log,
                        run + " " + node + "\n",
                        StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            }
            if (hang && run.startsWith("hang")) {
                System.out.println("HANGING " + run);
                System.out.flush();
                Thread.sleep(Long.MAX_VALUE);
            }
            var state = new ArrayList<>(context.state());
            state.add(node);
            return state;
        };
    }
}
