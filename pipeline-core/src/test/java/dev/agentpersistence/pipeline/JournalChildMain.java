package dev.agentpersistence.pipeline;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The run {@link ToolJournalKillTest} kills: {@value #NODES} nodes, each making {@value #CALLS} tool calls that write
 * rows to a SQLite table (the second through an idempotent tool), with short pauses between the calls. Arguments:
 * {@code <checkpoint db> <effects db> <runId>}. Prints {@code RECOVERED <node> <attempt> <undone>} per cut-off attempt
 * undone, {@code CALL <node>} after each tool call, and one {@code RESULT ...} line when it is not killed first.
 */
public final class JournalChildMain {
    static final int NODES = 30;
    static final int CALLS = 3;
    static final String PIPELINE = "journaled-pipeline";

    /** The pipeline state: the nodes that ran. */
    public record Done(List<String> nodes) {
        Done plus(String node) {
            var list = new ArrayList<>(nodes);
            list.add(node);
            return new Done(List.copyOf(list));
        }
    }

    private JournalChildMain() {}

    static String nodeName(int i) {
        return String.format("node-%02d", i);
    }

    static Pipeline<Done> pipeline(
            dev.agentpersistence.PersistenceStorageProvider<?> storage, EffectsTable table, PrintStream out) {
        var builder = Pipeline.builder(PIPELINE, StateCodec.jackson(Done.class))
                .storage(storage)
                .rollbackTools(RollbackToolRegistry.builder()
                        .registerRollback("insertRow", table.deleteRows())
                        .registerRollback("upsertRow", table.deleteRows())
                        .build())
                .retryPolicy(RetryPolicy.custom().maxRetries(200).build())
                .listener(event -> {
                    if (event instanceof PipelineEvent.AttemptRecovered recovered) {
                        out.println("RECOVERED " + recovered.node() + " " + recovered.attempt() + " "
                                + recovered.toolRollback().performed().size());
                    }
                });
        for (int n = 1; n <= NODES; n++) {
            String name = nodeName(n);
            builder.node(Node.<Done>of(name, ctx -> {
                for (int call = 1; call <= CALLS; call++) {
                    var args = JsonNodeFactory.instance
                            .objectNode()
                            .put("node", name)
                            .put("attempt", ctx.attempt())
                            .put("call", call);
                    ctx.callTool(call == 2 ? table.upsertRow() : table.insertRow(), args);
                    out.println("CALL " + name);
                    Thread.sleep(2 + ThreadLocalRandom.current().nextInt(6));
                }
                return ctx.state().plus(name);
            }));
        }
        return builder.build();
    }

    public static void main(String[] args) throws Exception {
        var out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        try (var storage = PersistenceStorageProviders.load(
                        "jdbc", ProviderConfig.of(Map.of("agent.persistence.jdbc.url", "jdbc:sqlite:" + args[0])));
                var table = new EffectsTable(Path.of(args[1]))) {
            var result = pipeline(storage, table, out).run(args[2], new Done(List.of()));
            out.println("RESULT " + result.status() + " "
                    + result.failure().map(PipelineFailure::describe).orElse(""));
        }
    }
}
