package dev.agentpersistence.history;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Storage that keeps histories in shared segments and can collect the segments no checkpoint needs any more;
 * {@link RetentionSweeper} collects through it after deleting checkpoints.
 */
public interface SegmentedHistoryStorage {

    /**
     * Deletes the agent's segments that no stored checkpoint references and that were last written before
     * {@code writtenBefore}; returns how many.
     */
    int collectGarbage(String agentId, Instant writtenBefore);

    /** The agents that have segments, sorted; includes agents whose checkpoints are all gone. */
    List<String> listSegmentAgents();

    /** How long a segment is spared after it was written, so a save in flight never loses one. */
    Duration gracePeriod();
}
