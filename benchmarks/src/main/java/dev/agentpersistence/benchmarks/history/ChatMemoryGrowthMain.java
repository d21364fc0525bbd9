package dev.agentpersistence.benchmarks.history;

import dev.agentpersistence.benchmarks.backend.Backend;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.benchmarks.backend.Directories;
import dev.agentpersistence.langchain4j.AgentPersistenceChatMemoryStore;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A LangChain4j chat of {@code --turns} turns (default 200) through {@code MessageWindowChatMemory} ({@code --window}
 * messages, default 20), on LangChain4j's {@code InMemoryChatMemoryStore} and on our
 * {@code AgentPersistenceChatMemoryStore} over each backend (incremental history, the providers' default): time per
 * turn at the start and at the end of the chat, and bytes. Run from the benchmark jar:
 *
 * <pre>{@code java -cp benchmarks/target/benchmarks.jar dev.agentpersistence.benchmarks.history.ChatMemoryGrowthMain \
 *     [--turns=200] [--turn-bytes=1024] [--window=20] [--backends=file,sqlite,postgresql,redis] [--keep-data]}</pre>
 *
 * Writes a Markdown table to {@code benchmarks/target/benchmark-results/chat-memory-<time>.md}.
 */
public final class ChatMemoryGrowthMain {
    private ChatMemoryGrowthMain() {}

    public static void main(String[] args) throws Exception {
        var numberDefaults = new LinkedHashMap<String, Integer>();
        numberDefaults.put("turns", 200);
        numberDefaults.put("turn-bytes", 1024);
        numberDefaults.put("window", 20);
        var options = GrowthOptions.parse(args, numberDefaults, List.of("file", "sqlite", "postgresql", "redis"));
        int turns = options.number("turns");
        int turnBytes = options.number("turn-bytes");
        int window = options.number("window");
        List<String> backends = options.backends();
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        var run = new ChatMemoryRun(turns, turnBytes, window);
        new ChatMemoryRun(Math.min(turns, 50), turnBytes, window).run(new InMemoryChatMemoryStore()); // warm-up
        var rows = new ArrayList<Row>();
        var heap = run.run(new InMemoryChatMemoryStore());
        rows.add(
                new Row("LangChain4j InMemoryChatMemoryStore", heap, heap.listRewriteBytes(), heap.finalWindowBytes()));
        BenchSettings settings = GrowthResults.newRunSettings(Optional.empty());
        try {
            for (String id : backends) {
                Optional<Backend> available = GrowthResults.available(id, settings);
                if (available.isEmpty()) {
                    continue;
                }
                Backend backend = available.get();
                try (var provider = backend.driver().open(settings, "chatwarmup", false, true)) {
                    new ChatMemoryRun(Math.min(turns, 50), turnBytes, window)
                            .run(AgentPersistenceChatMemoryStore.of(provider));
                }
                try (var provider = backend.driver().open(settings, "chat", false, true)) {
                    var outcome = run.run(AgentPersistenceChatMemoryStore.of(provider));
                    long stored = backend.driver().bytesStored(settings, "chat");
                    rows.add(new Row("ours, " + id, outcome, stored, stored));
                }
                System.err.println(rows.get(rows.size() - 1).line());
            }
        } finally {
            if (!options.keepData()) {
                for (String id : backends) {
                    Backend.of(id).driver().cleanUp(settings);
                }
                Directories.deleteRecursively(settings.runDir());
            }
        }
        GrowthResults.write("chat-memory", table(rows, turns, turnBytes, window));
    }

    /**
     * One store's outcome. For LangChain4j's store, the bytes written are those of its whole list on each update (what
     * its persistent stores serialize) and the bytes held those of the final window; ours only appends, so both are the
     * bytes in the backend at the end (whole history, every checkpoint).
     */
    private record Row(String store, ChatMemoryRun.Outcome outcome, long bytesWritten, long bytesHeld) {
        String line() {
            int turns = outcome.turnNanos().length;
            int edge = Math.max(1, turns / 10);
            double firstSaves = ChatMemoryRun.Outcome.medianMillis(outcome.saveNanos(), 0, edge);
            double lastSaves = ChatMemoryRun.Outcome.medianMillis(outcome.saveNanos(), turns - edge, turns);
            return String.format(
                    Locale.ROOT,
                    "| %s | %.3f | %.3f | %.3f | %.3f | %.2f | %s | %s |",
                    store,
                    ChatMemoryRun.Outcome.medianMillis(outcome.turnNanos(), 0, edge),
                    ChatMemoryRun.Outcome.medianMillis(outcome.turnNanos(), turns - edge, turns),
                    firstSaves,
                    lastSaves,
                    lastSaves / firstSaves,
                    GrowthResults.bytes(bytesWritten),
                    GrowthResults.bytes(bytesHeld));
        }
    }

    private static String table(List<Row> rows, int turns, int turnBytes, int window) {
        int edge = Math.max(1, turns / 10);
        var out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "### Chat memory: %,d turns of %,d bytes, window of %d messages%n%n",
                turns,
                turnBytes,
                window));
        out.append("Machine load average at the end: ")
                .append(GrowthResults.loadAverage())
                .append("\n\n");
        out.append("Times are medians over the first and the last ")
                .append(edge)
                .append(" turns.\n\n");
        out.append("| store | ms/turn, first ")
                .append(edge)
                .append(" | ms/turn, last ")
                .append(edge)
                .append(" | save ms/turn, first ")
                .append(edge)
                .append(" | save ms/turn, last ")
                .append(edge)
                .append(" | save last / first | bytes written | bytes held at the end |\n");
        out.append("|---|---|---|---|---|---|---|---|\n");
        for (Row row : rows) {
            out.append(row.line()).append('\n');
        }
        out.append("\nLangChain4j's store: bytes written = its whole list as LangChain4j JSON on every update (what its"
                + " persistent stores serialize), held = the final window only. Ours appends only: written and held ="
                + " the bytes in the backend (the whole history, evicted messages and tool calls included, and every"
                + " checkpoint).\n");
        return out.toString();
    }
}
