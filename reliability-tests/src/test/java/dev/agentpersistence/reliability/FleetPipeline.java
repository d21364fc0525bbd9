package dev.agentpersistence.reliability;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.pipeline.Node;
import dev.agentpersistence.pipeline.Pipeline;
import dev.agentpersistence.pipeline.StateCodec;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The pipeline of the fleet tests: {@value #NODES} nodes {@code n1..n5}, each inserting one row into the
 * {@link FleetEffects} table through the journaled {@code insertRow} tool (inverse {@code deleteRow}) between two short
 * pieces of work, and appending its name to the state. Node {@value #PAUSED_NODE} of a run whose id starts with
 * {@code pauseRuns} (when not null) prints {@code PAUSE-POINT <run> <node> <pid>} right after its first attempt's
 * insert and then sleeps {@code pauseMillis}, so a test can stop the JVM there.
 */
final class FleetPipeline {
    static final int NODES = 5;
    static final String PAUSED_NODE = "n3";
    static final StateCodec<List<String>> CODEC = StateCodec.jackson(new TypeReference<>() {});

    private FleetPipeline() {}

    static List<String> nodeNames() {
        var names = new ArrayList<String>();
        for (int i = 1; i <= NODES; i++) {
            names.add("n" + i);
        }
        return names;
    }

    static Pipeline<List<String>> pipeline(
            String name,
            PersistenceStorageProvider<?> storage,
            FleetEffects effects,
            String pauseRuns,
            long pauseMillis,
            PrintStream out) {
        var builder = Pipeline.builder(name, CODEC)
                .storage(storage)
                .rollbackTools(RollbackToolRegistry.builder()
                        .registerRollback(FleetEffects.INSERT, effects.deleteRow())
                        .build());
        var insert = effects.insertRow();
        for (String node : nodeNames()) {
            builder.node(Node.<List<String>>of(node, context -> {
                Thread.sleep(5 + ThreadLocalRandom.current().nextInt(30));
                context.callTool(insert, FleetEffects.arguments(context.runId(), node, context.attempt()));
                if (pauseRuns != null
                        && node.equals(PAUSED_NODE)
                        && context.runId().startsWith(pauseRuns)
                        && context.attempt() == 1) {
                    out.println("PAUSE-POINT " + context.runId() + " " + node + " "
                            + ProcessHandle.current().pid());
                    Thread.sleep(pauseMillis);
                }
                Thread.sleep(5 + ThreadLocalRandom.current().nextInt(30));
                var state = new ArrayList<>(context.state());
                state.add(node);
                return List.copyOf(state);
            }));
        }
        return builder.build();
    }
}
