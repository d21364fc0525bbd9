package dev.agentpersistence.benchmarks.fleet;

import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.pipeline.Node;
import dev.agentpersistence.pipeline.Pipeline;
import dev.agentpersistence.pipeline.StateCodec;

/** Our side of the fleet benchmark: a pipeline of five nodes, each adding one to the state. */
public final class FleetPipelines {
    /** Steps of both sides. */
    public static final int STEPS = 5;
    /** The pipeline's name. */
    public static final String NAME = "bench-five-steps";

    private FleetPipelines() {}

    /** The pipeline over {@code storage}; {@code hook} runs at the start of every node. */
    public static Pipeline<Integer> fiveSteps(PersistenceStorageProvider<?> storage, StepHook hook) {
        return fiveSteps(storage, hook, NAME);
    }

    /** As {@link #fiveSteps(PersistenceStorageProvider, StepHook)}, named {@code name}. */
    public static Pipeline<Integer> fiveSteps(PersistenceStorageProvider<?> storage, StepHook hook, String name) {
        var builder = Pipeline.builder(name, StateCodec.jackson(Integer.class)).storage(storage);
        for (int step = 1; step <= STEPS; step++) {
            int number = step;
            builder.node(Node.<Integer>of("step-" + step, context -> {
                hook.beforeStep(number);
                return context.state() + 1;
            }));
        }
        return builder.build();
    }
}
