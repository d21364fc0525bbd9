package dev.agentpersistence.reliability;

import java.time.Duration;

/**
 * How long the scenarios run: a bounded form in every build, a longer one with
 * {@code -Dagent.persistence.reliability.long=true} (or the environment variable
 * {@code AGENT_PERSISTENCE_RELIABILITY_LONG=true}).
 */
final class Scale {
    static final String LONG = "agent.persistence.reliability.long";

    private Scale() {}

    static boolean isLong() {
        String value = System.getProperty(LONG, System.getenv("AGENT_PERSISTENCE_RELIABILITY_LONG"));
        return value != null && value.trim().equalsIgnoreCase("true");
    }

    static int pick(int bounded, int longRun) {
        return isLong() ? longRun : bounded;
    }

    static Duration pick(Duration bounded, Duration longRun) {
        return isLong() ? longRun : bounded;
    }

    static String mode() {
        return isLong() ? "long" : "bounded";
    }
}
