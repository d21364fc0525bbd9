package dev.agentpersistence.benchmarks.peer;

import dev.agentpersistence.benchmarks.backend.Backend;
import dev.agentpersistence.benchmarks.backend.BackendDriver;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The stores the peer workload can run on, by id. */
public final class PeerStores {
    /** Prefix of our providers' ids: {@code ours-<backend>}. */
    public static final String OURS = "ours-";
    /** Suffix of our providers' ids with incremental histories: {@code ours-<backend>+incremental}. */
    public static final String INCREMENTAL = "+incremental";
    /** The peers' ids. */
    public static final List<String> PEERS =
            List.of("koog-inmemory", "koog-file", "langgraph4j-memory", "langgraph4j-file");
    /** Koog's checkpoints through our Koog integration into our stores (incremental history, as discovery gives it). */
    public static final List<String> KOOG_ON_OURS = List.of("koog-on-ours-file", "koog-on-ours-sqlite");
    /** LangGraph4j's checkpoints through our saver into our stores (incremental history, as discovery gives it). */
    public static final List<String> LANGGRAPH4J_ON_OURS =
            List.of("langgraph4j-on-ours-file", "langgraph4j-on-ours-sqlite");

    private static final String AGENT = "peer-agent";

    private PeerStores() {}

    /** Every store id: ours on every backend without and with incremental histories, then the peers. */
    public static List<String> all() {
        var ids = new ArrayList<String>();
        for (Backend backend : Backend.values()) {
            ids.add(OURS + backend.id());
        }
        for (Backend backend : Backend.values()) {
            ids.add(OURS + backend.id() + INCREMENTAL);
        }
        ids.addAll(PEERS);
        ids.addAll(KOOG_ON_OURS);
        ids.addAll(LANGGRAPH4J_ON_OURS);
        return ids;
    }

    /** The backend of one of our stores, empty for a peer. */
    public static Optional<Backend> backend(String id) {
        if (!id.startsWith(OURS)) {
            return Optional.empty();
        }
        String name = id.substring(OURS.length());
        return Optional.of(Backend.of(
                name.endsWith(INCREMENTAL) ? name.substring(0, name.length() - INCREMENTAL.length()) : name));
    }

    /** Whether our provider writes incremental history. */
    public static boolean incremental(String id) {
        return id.startsWith(OURS) && id.endsWith(INCREMENTAL);
    }

    /**
     * Opens the store {@code id} over fresh storage.
     *
     * @param warmup whether this is the warm-up run (other storage than the measured run)
     */
    public static PeerStore open(String id, BenchSettings settings, boolean warmup) {
        String namespace = (warmup ? "peerw" : "peer") + (incremental(id) ? "i" : "");
        switch (id) {
            case "koog-inmemory":
                return KoogPeerStore.inMemory(AGENT);
            case "koog-file":
                return KoogPeerStore.file(settings.runDir().resolve("koog-file-" + namespace), AGENT);
            case "koog-on-ours-file":
                return koogOnOurs(Backend.FILE, settings, namespace);
            case "koog-on-ours-sqlite":
                return koogOnOurs(Backend.SQLITE, settings, namespace);
            case "langgraph4j-memory":
                return LangGraph4jPeerStore.memory(AGENT);
            case "langgraph4j-file":
                return LangGraph4jPeerStore.file(settings.runDir().resolve("langgraph4j-file-" + namespace), AGENT);
            case "langgraph4j-on-ours-file":
                return langGraph4jOnOurs(Backend.FILE, settings, namespace);
            case "langgraph4j-on-ours-sqlite":
                return langGraph4jOnOurs(Backend.SQLITE, settings, namespace);
            default:
                Backend backend = backend(id)
                        .orElseThrow(() -> new IllegalArgumentException("Unknown store '" + id + "'; known: " + all()));
                BackendDriver driver = backend.driver();
                boolean incremental = incremental(id);
                return new OurPeerStore(
                        driver.open(settings, namespace, false, incremental),
                        AGENT,
                        () -> driver.bytesStored(settings, namespace),
                        note(backend) + (incremental ? "; incremental history" : ""));
        }
    }

    private static PeerStore koogOnOurs(Backend backend, BenchSettings settings, String namespace) {
        BackendDriver driver = backend.driver();
        String koogNamespace = namespace + "k";
        return KoogPeerStore.ours(
                driver.open(settings, koogNamespace, false, true),
                () -> driver.bytesStored(settings, koogNamespace),
                "Koog's checkpoints through KoogCheckpointStorage; " + note(backend) + "; incremental history",
                AGENT);
    }

    private static PeerStore langGraph4jOnOurs(Backend backend, BenchSettings settings, String namespace) {
        BackendDriver driver = backend.driver();
        String graphNamespace = namespace + "g";
        return LangGraph4jPeerStore.ours(
                driver.open(settings, graphNamespace, false, true),
                () -> driver.bytesStored(settings, graphNamespace),
                "LangGraph4j's checkpoints through AgentPersistenceSaver (messages key); " + note(backend)
                        + "; incremental history",
                AGENT);
    }

    private static String note(Backend backend) {
        return switch (backend) {
            case INMEMORY -> "copies JSON containers on save and read";
            case FILE -> "crash-safe journal: one append and one fdatasync per save";
            case FILE_NOFSYNC -> "crash-safe journal, fsync off";
            case FILE_PER_CHECKPOINT ->
                "crash-safe file per checkpoint: fdatasync of the file, fsync of 2 directories per save";
            case SQLITE -> "WAL, synchronous=FULL";
            case POSTGRESQL -> "synchronous_commit=on";
            case MARIADB -> "innodb_flush_log_at_trx_commit=1";
            case REDIS -> "no persistence configured on the server";
            case S3 -> "S3Proxy, in-memory store";
        };
    }
}
