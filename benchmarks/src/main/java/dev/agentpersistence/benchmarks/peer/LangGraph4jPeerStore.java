package dev.agentpersistence.benchmarks.peer;

import dev.agentpersistence.benchmarks.backend.Directories;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.checkpoint.BaseCheckpointSaver;
import org.bsc.langgraph4j.checkpoint.Checkpoint;
import org.bsc.langgraph4j.checkpoint.FileSystemSaver;
import org.bsc.langgraph4j.checkpoint.MemorySaver;
import org.bsc.langgraph4j.serializer.std.ObjectStreamStateSerializer;
import org.bsc.langgraph4j.state.AgentState;

/**
 * LangGraph4j's checkpoint savers ({@code org.bsc.langgraph4j:langgraph4j-core}): {@link MemorySaver}
 * and {@link FileSystemSaver} with its standard object-stream serializer. The state holds the
 * history under {@code messages} as a list of role/content maps.
 */
final class LangGraph4jPeerStore implements PeerStore {
    private final BaseCheckpointSaver saver;
    private final Path directory;
    private final RunnableConfig config;
    private final List<Map<String, String>> messages = new ArrayList<>();

    private LangGraph4jPeerStore(BaseCheckpointSaver saver, Path directory, String threadId) {
        this.saver = saver;
        this.directory = directory;
        this.config = RunnableConfig.builder().threadId(threadId).build();
    }

    static LangGraph4jPeerStore memory(String threadId) {
        return new LangGraph4jPeerStore(new MemorySaver(), null, threadId);
    }

    static LangGraph4jPeerStore file(Path directory, String threadId) {
        return new LangGraph4jPeerStore(
                new FileSystemSaver(directory, new ObjectStreamStateSerializer<>(AgentState::new)), directory, threadId);
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
        saver.put(config, Checkpoint.builder().id("step-" + step).nodeId("step").nextNodeId("step").state(state).build());
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
        return directory == null ? -1 : Directories.size(directory);
    }

    @Override
    public String note() {
        return directory == null ? "keeps references" : "one file per thread, rewritten on every save";
    }

    @Override
    public void close() {
        // the savers hold nothing open
    }
}
