package dev.agentpersistence.redis;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.backend.Expiry;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.queue.QueueStore;
import dev.agentpersistence.redaction.Redactor;
import dev.agentpersistence.redis.internal.RedisClients;
import dev.agentpersistence.redis.internal.RedisErrors;
import dev.agentpersistence.redis.internal.RedisStorageBackend;
import dev.agentpersistence.storage.StorageShell;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongPredicate;

/**
 * The Redis backend, except that the checkpoints a predicate picks are saved by the first layout's writer (builds
 * before 2026-12-02): with odd versions picked, every agent with more than one checkpoint holds checkpoints of both
 * layouts, as one saved by an older build and then by this one (or by both side by side). Everything else, reads and
 * deletions included, is today's backend.
 */
final class MixedLayoutBackend implements StorageBackend {
    private final StorageBackend backend;
    private final FirstLayoutWriter firstLayout;
    private final LongPredicate savedInFirstLayout;

    private MixedLayoutBackend(
            StorageBackend backend, FirstLayoutWriter firstLayout, LongPredicate savedInFirstLayout) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.firstLayout = Objects.requireNonNull(firstLayout, "firstLayout");
        this.savedInFirstLayout = Objects.requireNonNull(savedInFirstLayout, "savedInFirstLayout");
    }

    /**
     * A provider's builder over the standalone server at {@code uri} under {@code prefix} whose saves of the versions
     * {@code savedInFirstLayout} picks go through the first layout's save script.
     */
    static StorageShell.Builder provider(String uri, String prefix, LongPredicate savedInFirstLayout) {
        var config = RedisStorageConfig.custom().uri(uri).keyPrefix(prefix).build();
        return StorageShell.builder(context -> {
            var client = RedisClients.create(config);
            var backend = new RedisStorageBackend(
                    client,
                    true,
                    false,
                    prefix,
                    context.ttl().orElse(null),
                    context.clock(),
                    context.maxCheckpointSize(),
                    new RedisErrors("Redis at " + config.endpoint(), Redactor.forCredentialsIn(config.uri())));
            return new MixedLayoutBackend(
                    backend, new FirstLayoutWriter(client, prefix, context.clock()), savedInFirstLayout);
        });
    }

    @Override
    public InsertResult insert(StoredCheckpoint record) {
        return savedInFirstLayout.test(record.version()) ? firstLayout.insert(record) : backend.insert(record);
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
    public Optional<QueueStore> queues() {
        return backend.queues();
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
        return backend.describe() + ", some versions saved in the first layout";
    }

    @Override
    public void close() {
        backend.close();
    }
}
