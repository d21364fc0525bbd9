package dev.agentpersistence.pipeline;

import java.util.Locale;

/** When a {@link Condition} is checked. */
public enum ConditionPhase {
    /** Before a node's action: a violation fails the run at once. */
    PRECONDITION,
    /** After a node's action: a violation rolls the attempt back and retries it. */
    POSTCONDITION;

    /** {@code "pre"} or {@code "post"}, as used in metric tags. */
    public String tag() {
        return this == PRECONDITION ? "pre" : "post";
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
