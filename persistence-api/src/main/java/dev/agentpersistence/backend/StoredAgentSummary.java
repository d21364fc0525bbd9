package dev.agentpersistence.backend;

import java.util.Objects;

/**
 * One agent as an {@link AgentSummaryScan} sums it up: how many records it has, how many bytes their documents take,
 * and its record with the highest version (undecoded; the storage shell decodes and checks it).
 *
 * @param agentId the agent
 * @param records how many records the agent has (at least one)
 * @param bytes the sum of the sizes of the agent's documents
 * @param newest the agent's record with the highest version
 */
public record StoredAgentSummary(String agentId, long records, long bytes, StoredDocument newest) {
    public StoredAgentSummary {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(newest, "newest");
        if (records < 1 || bytes < 0) {
            throw new IllegalArgumentException(
                    "agent '" + agentId + "': records must be at least 1 and bytes not negative, got " + records
                            + " records and " + bytes + " bytes");
        }
    }
}
