package dev.agentpersistence.koog;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.tck.ForwardingStorageProvider;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A store in which another writer wins the race once: right after the agent reads the latest checkpoint of a session
 * whose latest node is {@code raceAfterNode}, the other writer (given the latest checkpoint read) saves first.
 * Everything else goes to the real store unchanged.
 */
final class RacingWriterStore extends ForwardingStorageProvider<CheckpointFilter> {
    private final String raceAfterNode;
    private final Consumer<AgentCheckpoint> otherWriter;
    private boolean raced;

    RacingWriterStore(
            PersistenceStorageProvider<CheckpointFilter> store,
            String raceAfterNode,
            Consumer<AgentCheckpoint> otherWriter) {
        super(store);
        this.raceAfterNode = raceAfterNode;
        this.otherWriter = otherWriter;
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
        Optional<AgentCheckpoint> latest = super.getLatestCheckpoint(agentId, filter);
        if (!raced && latest.isPresent() && raceAfterNode.equals(latest.get().nodeId())) {
            raced = true;
            otherWriter.accept(latest.get());
        }
        return latest;
    }
}
