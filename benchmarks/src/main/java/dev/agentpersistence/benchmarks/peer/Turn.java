package dev.agentpersistence.benchmarks.peer;

import java.util.Objects;

/**
 * One message of the peer workload's conversation, before each store turns it into its own type.
 *
 * @param user whether the user wrote it (else the assistant)
 * @param text about 1 KiB of text
 */
public record Turn(boolean user, String text) {
    public Turn {
        Objects.requireNonNull(text, "text");
    }
}
