package dev.agentpersistence.benchmarks.peer;

import dev.agentpersistence.benchmarks.backend.Backend;
import dev.agentpersistence.benchmarks.backend.BackendDriver;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import java.util.ArrayList;
import java.util.List;

/** The stores the peer workload can run on, by id. */
public final class PeerStores {
    /** Prefix of our providers' ids: {@code ours-<backend>}. */
    public static final String OURS = "ours-";
    /** The peers' ids. */
    public static final List<String> PEERS = List.of("koog-inmemory", "koog-file", "langgraph4j-memory", "langgraph4j-file");

    private static final String AGENT = "peer-agent";

    private PeerStores() {
    }

    /** Every store id: ours on every backend, then the peers. */
    public static List<String> all() {
        var ids = new ArrayList<String>();
        for (Backend backend : Backend.values()) {
            ids.add(OURS + backend.id());
        }
        ids.addAll(PEERS);
        return ids;
    }

    /** Opens the store {@code id} over fresh storage in {@code namespace}. */
    public static PeerStore open(String id, BenchSettings settings, String namespace) {
        switch (id) {
            case "koog-inmemory":
                return KoogPeerStore.inMemory(AGENT);
            case "koog-file":
                return KoogPeerStore.file(settings.runDir().resolve("koog-file-" + namespace), AGENT);
            case "langgraph4j-memory":
                return LangGraph4jPeerStore.memory(AGENT);
            case "langgraph4j-file":
                return LangGraph4jPeerStore.file(settings.runDir().resolve("langgraph4j-file-" + namespace), AGENT);
            default:
                if (!id.startsWith(OURS)) {
                    throw new IllegalArgumentException("Unknown store '" + id + "'; known: " + all());
                }
                Backend backend = Backend.of(id.substring(OURS.length()));
                BackendDriver driver = backend.driver();
                return new OurPeerStore(driver.open(settings, namespace, false), AGENT,
                        () -> driver.bytesStored(settings, namespace), note(backend));
        }
    }

    private static String note(Backend backend) {
        return switch (backend) {
            case INMEMORY -> "copies JSON containers on save and read";
            case FILE -> "crash-safe, 3 fsyncs per save";
            case FILE_NOFSYNC -> "crash-safe protocol, fsync off";
            case SQLITE -> "WAL, synchronous=FULL";
            case POSTGRESQL -> "synchronous_commit=on";
            case MARIADB -> "innodb_flush_log_at_trx_commit=1";
            case REDIS -> "no persistence configured on the server";
            case S3 -> "S3Proxy, in-memory store";
        };
    }
}
