package dev.agentpersistence.history.internal;

import java.util.Objects;

/**
 * Where the first messages of a forked history are kept: another agent's message log, up to and including {@code last}.
 * A fork's checkpoints name their bases instead of copying the parent's entries into their own log.
 *
 * @param agentId the agent whose log holds the entries
 * @param last the last entry of the history held there
 */
public record LogBase(String agentId, LogEntryId last) {
    public LogBase {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(last, "last");
    }
}
