package dev.agentpersistence.examples.demo;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Decides whether a writer agent "crashes" after writing its section and before handing over: {@link #off()} never,
 * {@link #once(String)} the first time the named agent gets there.
 */
public final class CrashSwitch {
    private final String agent;
    private final AtomicBoolean armed;

    private CrashSwitch(String agent, boolean armed) {
        this.agent = agent;
        this.armed = new AtomicBoolean(armed);
    }

    /** Never crashes. */
    public static CrashSwitch off() {
        return new CrashSwitch("", false);
    }

    /** Crashes {@code agent} once. */
    public static CrashSwitch once(String agent) {
        return new CrashSwitch(Objects.requireNonNull(agent, "agent"), true);
    }

    /** Throws {@link SimulatedCrash} when armed for {@code current}, disarming itself. */
    public void check(String current) {
        if (agent.equals(current) && armed.compareAndSet(true, false)) {
            throw new SimulatedCrash(current);
        }
    }

    /** Whether the crash has happened (or was never armed). */
    public boolean spent() {
        return !armed.get();
    }
}
