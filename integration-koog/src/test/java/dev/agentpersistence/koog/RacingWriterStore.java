package dev.agentpersistence.koog;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A store in which another writer wins the race once: right after the agent reads the latest
 * checkpoint of a session whose latest node is {@code raceAfterNode}, the other writer (given the
 * latest checkpoint read) saves first. Everything else goes to the real store unchanged.
 */
final class RacingWriterStore implements PersistenceStorageProvider<CheckpointFilter> {
    private final PersistenceStorageProvider<CheckpointFilter> store;
    private final String raceAfterNode;
    private final Consumer<AgentCheckpoint> otherWriter;
    private boolean raced;

    RacingWriterStore(PersistenceStorageProvider<CheckpointFilter> store, String raceAfterNode,
                      Consumer<AgentCheckpoint> otherWriter) {
        this.store = store;
        this.raceAfterNode = raceAfterNode;
        this.otherWriter = otherWriter;
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
        Optional<AgentCheckpoint> latest = store.getLatestCheckpoint(agentId, filter);
        if (!raced && latest.isPresent() && raceAfterNode.equals(latest.get().nodeId())) {
            raced = true;
            otherWriter.accept(latest.get());
        }
        return latest;
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
        return store.getCheckpoints(agentId, filter);
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        store.saveCheckpoint(agentId, checkpoint);
    }

    @Override
    public int deleteCheckpoints(String agentId) {
        return store.deleteCheckpoints(agentId);
    }

    @Override
    public void close() {
        store.close();
    }
}
