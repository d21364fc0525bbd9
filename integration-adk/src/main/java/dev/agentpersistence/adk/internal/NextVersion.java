package dev.agentpersistence.adk.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.PersistenceStorageProvider;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BiFunction;

/**
 * Saves the next checkpoint of an agent: the version after the stored head, the head as parent. A save that lost a race
 * to another writer is built again on the new head, a bounded number of times; then the last conflict is thrown.
 */
public final class NextVersion {
    /** How often a save that lost a race is tried again. */
    public static final int MAX_RETRIES = 32;

    private NextVersion() {}

    /**
     * Saves what {@code next} builds from a builder already holding id, agent, version, time and parent, and the head
     * it follows (empty for the first version); returns the checkpoint saved.
     *
     * @throws CheckpointConflictException when other writers won every attempt
     */
    public static AgentCheckpoint save(
            PersistenceStorageProvider<?> storage,
            String agentId,
            Clock clock,
            BiFunction<AgentCheckpoint.Builder, Optional<AgentCheckpoint>, AgentCheckpoint.Builder> next) {
        CheckpointConflictException last = null;
        for (int attempt = 0; attempt <= MAX_RETRIES; attempt++) {
            Optional<AgentCheckpoint> head = storage.getLatestCheckpoint(agentId);
            var builder = AgentCheckpoint.builder()
                    .checkpointId(UUID.randomUUID().toString())
                    .agentId(agentId)
                    .version(head.map(h -> h.version() + 1).orElse(0L))
                    .createdAt(clock.instant())
                    .parentCheckpointId(head.map(AgentCheckpoint::checkpointId).orElse(null));
            AgentCheckpoint checkpoint = next.apply(builder, head).build();
            try {
                storage.saveCheckpointAfter(agentId, head, checkpoint);
                return checkpoint;
            } catch (CheckpointConflictException conflict) {
                last = conflict;
                Thread.onSpinWait();
            }
        }
        throw last;
    }
}
