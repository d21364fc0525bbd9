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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Koog's snapshot providers ({@code ai.koog:agents-features-snapshot-jvm}): its in-memory provider
 * and its JVM file provider, called through their suspend API inside {@code runBlocking}. Each save
 * hands over an immutable copy of the history, as an agent's prompt does.
 */
final class KoogPeerStore implements PeerStore {
    private final PersistenceStorageProvider<?> provider;
    private final Path directory;
    private final String agentId;
    private final List<Message> messages = new ArrayList<>();

    private KoogPeerStore(PersistenceStorageProvider<?> provider, Path directory, String agentId) {
        this.provider = provider;
        this.directory = directory;
        this.agentId = agentId;
    }

    static KoogPeerStore inMemory(String agentId) {
        return new KoogPeerStore(new InMemoryPersistenceStorageProvider(), null, agentId);
    }

    static KoogPeerStore file(Path directory, String agentId) {
        return new KoogPeerStore(new JVMFilePersistenceStorageProvider(directory), directory, agentId);
    }

    @Override
    public void save(int step, List<Turn> history) throws InterruptedException {
        kotlin.time.Instant now = kotlin.time.Instant.Companion.fromEpochMilliseconds(System.currentTimeMillis());
        for (int i = messages.size(); i < history.size(); i++) {
            Turn turn = history.get(i);
            messages.add(turn.user()
                    ? new Message.User(turn.text(), new RequestMetaInfo(now))
                    : new Message.Assistant(turn.text(), new ResponseMetaInfo(now)));
        }
        var checkpoint = new AgentCheckpointData("step-" + step, now, List.copyOf(messages), step,
                new GraphCheckpointProperties("step", JSONPrimitive.of("done")));
        Coroutines.await(continuation -> provider.saveCheckpoint(agentId, checkpoint, continuation));
    }

    @Override
    public int latestHistorySize() throws InterruptedException {
        AgentCheckpointData latest = Coroutines.await(continuation -> provider.getLatestCheckpoint(agentId, continuation));
        return latest.getMessageHistory().size();
    }

    @Override
    public int listSize() throws InterruptedException {
        List<AgentCheckpointData> all = Coroutines.await(continuation -> provider.getCheckpoints(agentId, continuation));
        return all.size();
    }

    @Override
    public long bytesStored() {
        return directory == null ? -1 : Directories.size(directory);
    }

    @Override
    public String note() {
        return directory == null ? "keeps references" : "JSON file per checkpoint, no fsync";
    }

    @Override
    public void close() {
        // Koog's providers hold nothing open
    }
}
