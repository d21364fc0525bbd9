package dev.agentpersistence.benchmarks.peer;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.benchmarks.backend.Directories;
import dev.agentpersistence.langgraph4j.AgentPersistenceSaver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.checkpoint.BaseCheckpointSaver;
import org.bsc.langgraph4j.checkpoint.Checkpoint;
import org.bsc.langgraph4j.checkpoint.FileSystemSaver;
import org.bsc.langgraph4j.checkpoint.MemorySaver;
import org.bsc.langgraph4j.serializer.std.ObjectStreamStateSerializer;
import org.bsc.langgraph4j.state.AgentState;

/**
 * LangGraph4j's checkpoint savers ({@code org.bsc.langgraph4j:langgraph4j-core}): {@link MemorySaver} and
 * {@link FileSystemSaver} with its standard object-stream serializer, or ours behind LangGraph4j's interface
 * ({@link AgentPersistenceSaver}). The state holds the history under {@code messages} as a list of role/content maps.
 */
final class LangGraph4jPeerStore implements PeerStore {
    private final BaseCheckpointSaver saver;
    private final LongSupplier bytesStored;
    private final String note;
    private final AutoCloseable resources;
    private final RunnableConfig config;
    private final List<Map<String, String>> messages = new ArrayList<>();

    private LangGraph4jPeerStore(
            BaseCheckpointSaver saver,
            LongSupplier bytesStored,
            String note,
            AutoCloseable resources,
            String threadId) {
        this.saver = saver;
        this.bytesStored = bytesStored;
        this.note = note;
        this.resources = resources;
        this.config = RunnableConfig.builder().threadId(threadId).build();
    }

    static LangGraph4jPeerStore memory(String threadId) {
        return new LangGraph4jPeerStore(new MemorySaver(), () -> -1, "keeps references", null, threadId);
    }

    static LangGraph4jPeerStore file(Path directory, String threadId) {
        return new LangGraph4jPeerStore(
                new FileSystemSaver(directory, new ObjectStreamStateSerializer<>(AgentState::new)),
                () -> Directories.size(directory),
                "one file per thread, rewritten on every save",
                null,
                threadId);
    }

    static LangGraph4jPeerStore ours(
            PersistenceStorageProvider<CheckpointFilter> ours, LongSupplier bytesStored, String note, String threadId) {
        return new LangGraph4jPeerStore(
                AgentPersistenceSaver.builder(ours).messagesKey("messages").build(), bytesStored, note, ours, threadId);
    }

    @Override
    public void save(int step, List<Turn> history) throws Exception {
        for (int i = messages.size(); i < history.size(); i++) {
            Turn turn = history.get(i);
            var message = new LinkedHashMap<String, String>();
            message.put("role", turn.user() ? "user" : "assistant");
            message.put("content", turn.text());
            messages.add(message);
        }
        Map<String, Object> state = Map.of("messages", List.copyOf(messages));
        saver.put(
                config,
                Checkpoint.builder()
                        .id("step-" + step)
                        .nodeId("step")
                        .nextNodeId("step")
                        .state(state)
                        .build());
    }

    @Override
    public int latestHistorySize() {
        Checkpoint latest = saver.get(config).orElseThrow();
        return ((List<?>) latest.getState().get("messages")).size();
    }

    @Override
    public int listSize() {
        return saver.list(config).size();
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
        if (resources != null) {
            try {
                resources.close();
            } catch (Exception e) {
                throw new IllegalStateException("could not close " + resources, e);
            }
        }
    }
}
