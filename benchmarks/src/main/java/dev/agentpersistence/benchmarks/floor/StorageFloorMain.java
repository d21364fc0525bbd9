package dev.agentpersistence.benchmarks.floor;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.benchmarks.backend.Backend;
import dev.agentpersistence.benchmarks.backend.BackendDriver;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.benchmarks.backend.Directories;
import dev.agentpersistence.benchmarks.backend.S3Server;
import dev.agentpersistence.benchmarks.history.ChatMemoryRun;
import dev.agentpersistence.benchmarks.history.GrowthOptions;
import dev.agentpersistence.benchmarks.history.GrowthResults;
import dev.agentpersistence.benchmarks.peer.OurPeerStore;
import dev.agentpersistence.benchmarks.peer.PeerStore;
import dev.agentpersistence.benchmarks.peer.PeerStores;
import dev.agentpersistence.langchain4j.AgentPersistenceChatMemoryStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Bytes each store holds after two workloads, against the floor ({@link StorageFloor}): the peer workload of
 * {@code --steps} steps (default 200; a user and an assistant message of 1,024 characters per step, one checkpoint with
 * the whole history per step) and a LangChain4j chat of {@code --turns} turns (default 200) through
 * {@code AgentPersistenceChatMemoryStore}, on our provider over each backend (incremental history, the default), then
 * the peers: Koog's file provider and LangGraph4j's {@code FileSystemSaver} on the peer workload, LangChain4j's
 * JSON-file recipe on the chat. Per store: checkpoints, bytes held after close and compaction
 * ({@link BackendDriver#compact}), the floor and its parts, for ours the bytes of an empty store of the backend (opened
 * and closed, nothing saved: what a store costs before its first checkpoint), the median save, the median of 200 reads
 * of the latest checkpoint after the run, and for ours the backend calls of one read of a 1,000-message history by a
 * new provider ({@link RoundTrips}). Run from the benchmark jar:
 *
 * <pre>{@code java -cp benchmarks/target/benchmarks.jar dev.agentpersistence.benchmarks.floor.StorageFloorMain \
 *     [--steps=200] [--turns=200] [--keep-data] \
 *     [--backends=inmemory,file,sqlite,postgresql,mariadb,redis,s3,koog-file,langgraph4j-file,langchain4j-json-file]}
 * </pre>
 *
 * Starts S3Proxy, uses names unique to the run in every backend, removes the data afterwards, and writes a Markdown
 * table to {@code benchmarks/target/benchmark-results/storage-floor-<time>.md}.
 */
public final class StorageFloorMain {
    private static final String PEER = "peer";
    private static final String CHAT = "chat";
    private static final String AGENT = "floor-agent";
    private static final String KOOG = "koog-file";
    private static final String LANGGRAPH4J = "langgraph4j-file";
    private static final String LANGCHAIN4J = "langchain4j-json-file";
    private static final int LATEST_CALLS = 200;
    private static final int WARMUP = 50;
    /** Steps of the long history whose cold read is counted: 1,000 messages. */
    private static final int LONG_HISTORY_STEPS = 500;

    private StorageFloorMain() {}

    public static void main(String[] args) throws Exception {
        var numberDefaults = new LinkedHashMap<String, Integer>();
        numberDefaults.put("steps", 200);
        numberDefaults.put("turns", 200);
        var options = GrowthOptions.parse(
                args,
                numberDefaults,
                List.of(
                        "inmemory",
                        "file",
                        "sqlite",
                        "postgresql",
                        "mariadb",
                        "redis",
                        "s3",
                        KOOG,
                        LANGGRAPH4J,
                        LANGCHAIN4J));
        int steps = options.number("steps");
        int turns = options.number("turns");
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        var rows = new ArrayList<FloorRow>();
        StorageFloor peerFloor;
        StorageFloor chatFloor;
        try (S3Server s3 = S3Server.start()) {
            BenchSettings settings = GrowthResults.newRunSettings(Optional.of(s3.endpoint()));
            s3.createBucket(settings);
            if (options.backends().contains("s3")) {
                s3.warmUp(settings);
            }
            try {
                peerFloor = peerFloor(settings, steps);
                chatFloor = chatFloor(settings, turns);
                for (String id : options.backends()) {
                    List<FloorRow> measured = switch (id) {
                        case KOOG, LANGGRAPH4J -> List.of(peer(id, settings, steps, peerFloor));
                        case LANGCHAIN4J -> List.of(langChain4j(settings, turns, chatFloor));
                        default ->
                            GrowthResults.available(id, settings)
                                    .map(backend -> ours(backend, settings, steps, turns, peerFloor, chatFloor))
                                    .orElse(List.of());
                    };
                    measured.forEach(row -> System.err.println(row.line()));
                    rows.addAll(measured);
                }
            } finally {
                if (!options.keepData()) {
                    GrowthResults.removeRunData(settings);
                }
            }
        }
        GrowthResults.write("storage-floor", table(rows, steps, turns, peerFloor, chatFloor));
    }

    /** The peer workload's floor, from a run on the heap provider (which also warms up the shell's code). */
    private static StorageFloor peerFloor(BenchSettings settings, int steps) throws Exception {
        PersistenceStorageProvider<CheckpointFilter> provider =
                Backend.INMEMORY.driver().open(settings, "floorpeerref", false, true);
        try (var store = new OurPeerStore(provider, AGENT, () -> -1, "floor")) {
            FloorWorkloads.peer(store, steps, 1);
            return StorageFloor.of(provider.getLatestCheckpoint(AGENT).orElseThrow());
        }
    }

    /** The chat's floor, from a run on the heap provider. */
    private static StorageFloor chatFloor(BenchSettings settings, int turns) throws Exception {
        try (var provider = Backend.INMEMORY.driver().open(settings, "floorchatref", false, true)) {
            chat(provider, turns, 1);
            String agent =
                    AgentPersistenceChatMemoryStore.of(provider).conversations().agentId(ChatMemoryRun.MEMORY_ID);
            return StorageFloor.of(provider.getLatestCheckpoint(agent).orElseThrow());
        }
    }

    /** Ours on {@code backend}: a short warm-up of both workloads, the cold read of a long history, then both. */
    private static List<FloorRow> ours(
            Backend backend,
            BenchSettings settings,
            int steps,
            int turns,
            StorageFloor peerFloor,
            StorageFloor chatFloor) {
        BackendDriver driver = backend.driver();
        try {
            try (var warm = new OurPeerStore(driver.open(settings, "floorwarm", false, true), AGENT, () -> -1, "")) {
                FloorWorkloads.peer(warm, WARMUP, WARMUP);
            }
            try (var warm = driver.open(settings, "floorwarmchat", false, true)) {
                chat(warm, WARMUP, WARMUP);
            }
            String trips = RoundTrips.ofColdLatest(driver, settings, "floortrips", LONG_HISTORY_STEPS)
                    .describe();
            FloorWorkloads.Timed peer;
            try (var store = new OurPeerStore(driver.open(settings, "floorpeer", false, true), AGENT, () -> -1, "")) {
                peer = FloorWorkloads.peer(store, steps, LATEST_CALLS);
            }
            long peerBytes = driver.bytesHeld(settings, "floorpeer");
            FloorWorkloads.Timed chat;
            try (var provider = driver.open(settings, "floorchat", false, true)) {
                chat = chat(provider, turns, LATEST_CALLS);
            }
            long chatBytes = driver.bytesHeld(settings, "floorchat");
            try (var empty = driver.open(settings, "floorempty", false, true)) {
                empty.listAgents();
            }
            long emptyBytes = driver.bytesHeld(settings, "floorempty");
            String store = "ours, " + backend.id();
            return List.of(
                    new FloorRow(store, PEER, peer, peerBytes, emptyBytes, peerFloor, trips),
                    new FloorRow(store, CHAT, chat, chatBytes, emptyBytes, chatFloor, trips));
        } catch (Exception e) {
            throw new IllegalStateException("The floor benchmark failed on " + backend.id(), e);
        }
    }

    /** The chat on our chat memory store over {@code provider}, reading the latest checkpoint after it. */
    private static FloorWorkloads.Timed chat(
            PersistenceStorageProvider<CheckpointFilter> provider, int turns, int latestCalls) throws Exception {
        var store = AgentPersistenceChatMemoryStore.of(provider);
        String agent = store.conversations().agentId(ChatMemoryRun.MEMORY_ID);
        return FloorWorkloads.chat(
                store,
                turns,
                latestCalls,
                () -> provider.getLatestCheckpoint(agent).orElseThrow(),
                () -> provider.getCheckpoints(agent).size());
    }

    /** What {@code namespace} holds once its providers are closed and the store is compacted. */
    /** A peer framework's file store on the peer workload; its bytes are read after it is closed. */
    private static FloorRow peer(String id, BenchSettings settings, int steps, StorageFloor floor) throws Exception {
        try (PeerStore warm = PeerStores.open(id, settings, true)) {
            FloorWorkloads.peer(warm, WARMUP, WARMUP);
        }
        PeerStore store = PeerStores.open(id, settings, false);
        FloorWorkloads.Timed timed;
        try (store) {
            timed = FloorWorkloads.peer(store, steps, LATEST_CALLS);
        }
        String name = id.equals(KOOG) ? "Koog JVMFilePersistenceStorageProvider" : "LangGraph4j FileSystemSaver";
        return new FloorRow(name, PEER, timed, store.bytesStored(), -1, floor, "");
    }

    /** LangChain4j's JSON-file recipe on the chat. */
    private static FloorRow langChain4j(BenchSettings settings, int turns, StorageFloor floor) throws Exception {
        var warm = new JsonFileChatMemoryStore(settings.runDir().resolve(LANGCHAIN4J + "-warm"));
        FloorWorkloads.chat(warm, WARMUP, WARMUP, () -> warm.getMessages(ChatMemoryRun.MEMORY_ID), () -> 0);
        Path directory = settings.runDir().resolve(LANGCHAIN4J);
        var store = new JsonFileChatMemoryStore(directory);
        FloorWorkloads.Timed timed = FloorWorkloads.chat(
                store, turns, LATEST_CALLS, () -> store.getMessages(ChatMemoryRun.MEMORY_ID), () -> 0);
        return new FloorRow("LangChain4j JSON file (recipe)", CHAT, timed, Directories.size(directory), -1, floor, "");
    }

    private static String table(
            List<FloorRow> rows, int steps, int turns, StorageFloor peerFloor, StorageFloor chatFloor) {
        var out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "### Bytes held against the floor: peer workload of %,d steps, chat of %,d turns%n%n",
                steps,
                turns));
        out.append("Machine load average at the end: ")
                .append(GrowthResults.loadAverage())
                .append("\n\n");
        out.append(String.format(
                Locale.ROOT,
                "Floor = the final conversation's JSON compressed once (%s) + %d bytes per checkpoint held."
                        + " Peer: %,d bytes of JSON, %,d compressed (%,d messages of 1,024 characters)."
                        + " Chat: %,d bytes of JSON, %,d compressed (the whole conversation, evicted messages"
                        + " included).%n%n",
                StorageFloor.compression(),
                StorageFloor.PER_CHECKPOINT,
                peerFloor.jsonBytes(),
                peerFloor.compressedBytes(),
                2 * steps,
                chatFloor.jsonBytes(),
                chatFloor.compressedBytes()));
        out.append(FloorRow.header());
        Stream.of(PEER, CHAT)
                .flatMap(workload -> rows.stream().filter(row -> row.workload().equals(workload)))
                .forEach(row -> out.append(row.line()).append('\n'));
        out.append("""

                Bytes held, read once every provider of the store is closed:
                - inmemory: not measured (the heap driver reports no size).
                - file: the sizes of all files under the store's directory.
                - sqlite: the database file plus its -wal file, after `PRAGMA wal_checkpoint(TRUNCATE)` on a plain \
                JDBC connection.
                - postgresql: `pg_total_relation_size` of the tables (heap, indexes, TOAST, free-space and visibility \
                maps) after a plain `VACUUM` of each.
                - mariadb: `data_length + index_length` of `information_schema.tables` after `ANALYZE TABLE`: InnoDB \
                reports the pages it allocated (16 KiB each), not the bytes of the rows.
                - redis: the sum of `MEMORY USAGE` of the store's keys (the server's memory for them, its per-key \
                overhead included).
                - s3: the sum of the sizes of the objects under the store's prefix.
                - Koog, LangGraph4j and LangChain4j: the sizes of their files. LangChain4j's recipe rewrites one JSON \
                file with the memory's window (20 messages) on every update: it keeps no history and no checkpoint, \
                so it holds less than the floor of the whole conversation.

                Save p50: median time of one save (a step's checkpoint, or one `updateMessages` of the chat memory). \
                Latest p50: median of 200 reads of the latest checkpoint after the run (`getLatestCheckpoint`; \
                `latestHistorySize` for the peers, `getMessages` for LangChain4j). Backend calls: a new provider \
                over a store holding one agent's 500 checkpoints of a 1,000-message history reads the latest \
                checkpoint once; every call it makes to the `StorageBackend` and its `HistorySegmentStore` is \
                counted (one call can be more than one request to the server).
                """);
        return out.toString();
    }
}
