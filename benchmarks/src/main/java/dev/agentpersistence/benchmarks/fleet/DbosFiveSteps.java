package dev.agentpersistence.benchmarks.fleet;

import dev.dbos.transact.DBOS;
import dev.dbos.transact.workflow.Workflow;
import java.util.Objects;

/**
 * {@link FiveSteps} as a DBOS workflow: five {@code runStep} calls, each checkpointed by DBOS before the next one runs,
 * the counterpart of {@link FleetPipelines}' five nodes. With a {@link StepHook} the steps can block (for the recovery
 * measurement).
 */
public final class DbosFiveSteps implements FiveSteps {
    /** The workflow's registered name. */
    public static final String NAME = "fiveSteps";

    private final DBOS dbos;
    private final StepHook hook;

    public DbosFiveSteps(DBOS dbos, StepHook hook) {
        this.dbos = Objects.requireNonNull(dbos, "dbos");
        this.hook = Objects.requireNonNull(hook, "hook");
    }

    @Override
    @Workflow(name = NAME)
    public int run(int input) throws InterruptedException {
        int value = input;
        for (int step = 1; step <= FleetPipelines.STEPS; step++) {
            int before = value;
            int number = step;
            value = dbos.runStep(
                    () -> {
                        hook.beforeStep(number);
                        return before + 1;
                    },
                    "step-" + step);
        }
        return value;
    }
}
