package dev.agentpersistence.cli.internal;

import dev.agentpersistence.CheckpointFilter;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Which checkpoints an export or a copy takes: some agents (all when empty) and a creation time window, pushed down to
 * the store as a {@link CheckpointFilter}.
 *
 * @param agents the agent ids, or empty for every agent
 * @param since created at or after (inclusive), or {@code null}
 * @param until created before (exclusive), or {@code null}
 */
public record Selection(List<String> agents, Instant since, Instant until) {
    public Selection {
        agents = agents == null ? List.of() : List.copyOf(agents);
        if (since != null && until != null && !since.isBefore(until)) {
            throw new IllegalArgumentException("--since " + since + " must be before --until " + until);
        }
    }

    /** Every checkpoint. */
    public static Selection all() {
        return new Selection(List.of(), null, null);
    }

    /** The agents to visit in {@code store}, sorted. */
    public List<String> agentsIn(Store store) {
        Objects.requireNonNull(store, "store");
        return agents.isEmpty()
                ? store.agents()
                : agents.stream().sorted().distinct().toList();
    }

    /** The filter of the time window. */
    public CheckpointFilter filter() {
        return CheckpointFilter.builder()
                .createdAfter(since)
                .createdBefore(until)
                .build();
    }
}
