package dev.agentpersistence.redis;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.backend.Expiry;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The Redis backend, except that checkpoints of odd versions are saved by the first layout's writer: every agent with
 * more than one checkpoint holds entries of both layouts, as one saved by a release before the lean layout and then by
 * this one (or by releases of both, side by side). Everything else, reads and deletions included, is today's backend.
 */
final class MixedLayoutBackend implements StorageBackend {
    private final StorageBackend backend;
    private final FirstLayoutWriter firstLayout;

    MixedLayoutBackend(StorageBackend backend, FirstLayoutWriter firstLayout) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.firstLayout = Objects.requireNonNull(firstLayout, "firstLayout");
    }

    @Override
    public InsertResult insert(StoredCheckpoint record) {
        return record.version() % 2 == 1 ? firstLayout.insert(record) : backend.insert(record);
    }

    @Override
    public Optional<StoredDocument> find(String agentId, String checkpointId) {
        return backend.find(agentId, checkpointId);
    }

    @Override
    public Optional<StoredDocument> latest(String agentId, CheckpointFilter filter) {
        return backend.latest(agentId, filter);
    }

    @Override
    public List<StoredDocument> list(String agentId, CheckpointFilter filter) {
        return backend.list(agentId, filter);
    }

    @Override
    public int deleteAll(String agentId) {
        return backend.deleteAll(agentId);
    }

    @Override
    public int deleteBefore(String agentId, long version) {
        return backend.deleteBefore(agentId, version);
    }

    @Override
    public List<String> listAgents() {
        return backend.listAgents();
    }

    @Override
    public Optional<Expiry> expiry() {
        return backend.expiry();
    }

    @Override
    public Optional<HistorySegmentStore> segments() {
        return backend.segments();
    }

    @Override
    public void checkHealth() {
        backend.checkHealth();
    }

    @Override
    public String location(String agentId, String checkpointId) {
        return backend.location(agentId, checkpointId);
    }

    @Override
    public String describe() {
        return backend.describe() + ", odd versions in the first layout";
    }

    @Override
    public void close() {
        backend.close();
    }
}
