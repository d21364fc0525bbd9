package dev.agentpersistence.benchmarks.fleet;

/** What a step of either side does before its work: nothing while measuring, block at one step for a recovery. */
@FunctionalInterface
public interface StepHook {
    /** Nothing. */
    StepHook NONE = step -> {};

    /** Called with the step's number (1 to 5) when the step starts. */
    void beforeStep(int step) throws InterruptedException;

    /** Prints {@code IN-STEP <n>} and blocks forever at step {@code n}, so the process can be killed inside it. */
    static StepHook blockAt(int n) {
        return step -> {
            if (step == n) {
                System.out.println("IN-STEP " + step);
                System.out.flush();
                Thread.sleep(Long.MAX_VALUE);
            }
        };
    }
}
