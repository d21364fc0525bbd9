package dev.agentpersistence.pipeline;

import java.util.Locale;

/** How one attempt of a node ended. */
public enum AttemptOutcome {
    /** The action returned and every postcondition held. */
    SUCCEEDED,
    /** The action returned but a postcondition was violated. */
    VALIDATION_FAILED,
    /** The action threw. */
    ERROR;

    /** {@code "success"}, {@code "validation_failed"} or {@code "error"}, as used in metric tags. */
    public String tag() {
        return this == SUCCEEDED ? "success" : name().toLowerCase(Locale.ROOT);
    }
}
