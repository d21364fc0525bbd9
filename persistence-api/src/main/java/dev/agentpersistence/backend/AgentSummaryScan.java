package dev.agentpersistence.backend;

import java.util.List;

/**
 * How a backend sums up every agent it holds in one pass (one query, one scan): each agent's record count, stored bytes
 * and newest record. A backend that has one returns it from {@link StorageBackend#agentSummaries()}; without it the
 * storage shell asks for each agent's records and newest record itself. Either way a caller sees the same
 * {@link AgentSummary}s through {@link StoredForm#agentSummaries()}.
 */
@FunctionalInterface
public interface AgentSummaryScan {

    /**
     * Every agent with at least one record, each with its record count, the sum of its documents' sizes and its record
     * with the highest version, in any order.
     */
    List<StoredAgentSummary> summaries();
}
