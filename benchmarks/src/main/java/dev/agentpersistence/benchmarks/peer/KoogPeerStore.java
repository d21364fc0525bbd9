package dev.agentpersistence.benchmarks.peer;

import ai.koog.agents.snapshot.feature.AgentCheckpointData;
import ai.koog.agents.snapshot.feature.GraphCheckpointProperties;
import ai.koog.agents.snapshot.providers.InMemoryPersistenceStorageProvider;
import ai.koog.agents.snapshot.providers.PersistenceStorageProvider;
import ai.koog.agents.snapshot.providers.file.JVMFilePersistenceStorageProvider;
import ai.koog.prompt.message.Message;
import ai.koog.prompt.message.RequestMetaInfo;
import ai.koog.prompt.message.ResponseMetaInfo;
import ai.koog.serialization.JSONPrimitive;
import dev.agentpersistence.benchmarks.backend.Directories;
import dev.agentpersistence.koog.KoogCheckpointStorage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Koog's snapshot providers ({@code ai.koog:agents-features-snapshot-jvm}): its in-memory provider and its JVM file
 * provider, or ours behind Koog's interface ({@link KoogCheckpointStorage}), called through their suspend API inside
 * {@code runBlocking}. Each save hands over an immutable copy of the history, as an agent's prompt does.
 */
final class KoogPeerStore implements PeerStore {
    private final PersistenceStorageProvider<?> provider;
    private final LongSupplier bytesStored;
    private final String note;
    private final AutoCloseable resources;
    private final String agentId;
    private final List<Message> messages = new ArrayList<>();

    private KoogPeerStore(
            PersistenceStorageProvider<?> provider,
            LongSupplier bytesStored,
            String note,
            AutoCloseable resources,
            String agentId) {
        this.provider = provider;
        this.bytesStored = bytesStored;
        this.note = note;
        this.resources = resources;
        this.agentId = agentId;
    }

    static KoogPeerStore inMemory(String agentId) {
        return new KoogPeerStore(new InMemoryPersistenceStorageProvider(), () -> -1, "keeps references", null, agentId);
    }

    static KoogPeerStore file(Path directory, String agentId) {
        return new KoogPeerStore(
                new JVMFilePersistenceStorageProvider(directory),
                () -> Directories.size(directory),
                "JSON file per checkpoint, no fsync",
                null,
                agentId);
    }

    /** Koog's checkpoints in one of our providers, which this store closes. */
    static KoogPeerStore ours(
            dev.agentpersistence.PersistenceStorageProvider<?> ours,
            LongSupplier bytesStored,
            String note,
            String agentId) {
        return new KoogPeerStore(KoogCheckpointStorage.of(ours), bytesStored, note, ours, agentId);
    }

    @Override
    public void save(int step, List<Turn> history) throws InterruptedException {
        kotlin.time.Instant now = kotlin.time.Instant.Companion.fromEpochMilliseconds(System.currentTimeMillis());
        for (int i = messages.size(); i < history.size(); i++) {
            Turn turn = history.get(i);
            messages.add(
                    turn.user()
                            ? new Message.User(turn.text(), new RequestMetaInfo(now))
                            : new Message.Assistant(turn.text(), new ResponseMetaInfo(now)));
        }
        var checkpoint = new AgentCheckpointData(
                "step-" + step,
                now,
                List.copyOf(messages),
                step,
                new GraphCheckpointProperties("step", JSONPrimitive.of("done")));
        Coroutines.await(continuation -> provider.saveCheckpoint(agentId, checkpoint, continuation));
    }

    @Override
    public int latestHistorySize() throws InterruptedException {
        AgentCheckpointData latest =
                Coroutines.await(continuation -> provider.getLatestCheckpoint(agentId, continuation));
        return latest.getMessageHistory().size();
    }

    @Override
    public int listSize() throws InterruptedException {
        List<AgentCheckpointData> all =
                Coroutines.await(continuation -> provider.getCheckpoints(agentId, continuation));
        return all.size();
    }

    @Override
    public long bytesStored() {
        return bytesStored.getAsLong();
    }

    @Override
    public String note() {
        return note;
    }

    @Override
    public void close() {
        // Koog's own providers hold nothing open; ours are closed
        if (resources != null) {
            try {
                resources.close();
            } catch (Exception e) {
                throw new IllegalStateException("could not close " + resources, e);
            }
        }
    }
}
