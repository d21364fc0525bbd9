package dev.agentpersistence.benchmarks.peer;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/** Our provider in the peer workload: one {@link AgentCheckpoint} per step with the full history. */
public final class OurPeerStore implements PeerStore {
    private final PersistenceStorageProvider<CheckpointFilter> provider;
    private final String agentId;
    private final LongSupplier bytes;
    private final String note;
    private final List<Message> messages = new ArrayList<>();

    /**
     * A store saving {@code agentId}'s checkpoints in {@code provider}, which {@link #close()} closes.
     *
     * @param bytes what {@link #bytesStored()} answers
     */
    public OurPeerStore(
            PersistenceStorageProvider<CheckpointFilter> provider, String agentId, LongSupplier bytes, String note) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.agentId = Objects.requireNonNull(agentId, "agentId");
        this.bytes = Objects.requireNonNull(bytes, "bytes");
        this.note = Objects.requireNonNull(note, "note");
    }

    @Override
    public void save(int step, List<Turn> history) {
        for (int i = messages.size(); i < history.size(); i++) {
            Turn turn = history.get(i);
            messages.add(turn.user() ? Message.user(turn.text()) : Message.assistant(turn.text()));
        }
        provider.saveCheckpoint(agentId, checkpoint(agentId, step, messages));
    }

    /** The checkpoint of {@code step} holding {@code history}, as this store saves it. */
    public static AgentCheckpoint checkpoint(String agentId, int step, List<Message> history) {
        return AgentCheckpoint.builder()
                .checkpointId("step-" + step)
                .agentId(agentId)
                .version(step)
                .createdAt(Instant.now())
                .nodeId("step")
                .messageHistory(history)
                .parentCheckpointId(step == 0 ? null : "step-" + (step - 1))
                .build();
    }

    @Override
    public int latestHistorySize() {
        return provider.getLatestCheckpoint(agentId)
                .orElseThrow()
                .messageHistory()
                .size();
    }

    @Override
    public int listSize() {
        return provider.getCheckpoints(agentId).size();
    }

    @Override
    public long bytesStored() {
        return bytes.getAsLong();
    }

    @Override
    public String note() {
        return note;
    }

    @Override
    public void close() {
        provider.close();
    }
}
