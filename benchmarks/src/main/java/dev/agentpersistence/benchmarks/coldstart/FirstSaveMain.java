package dev.agentpersistence.benchmarks.coldstart;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.benchmarks.raw.RawFileStore;
import dev.agentpersistence.benchmarks.raw.RawJdbcStore;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

/**
 * One first save in a fresh JVM, then exit: {@code FirstSaveMain <mode> <empty directory>}, the mode one of
 * {@code ours-sqlite}, {@code ours-file} (the provider as discovery builds it, default settings: durable) or
 * {@code raw-sqlite}, {@code raw-file} (the driver's own first insert in WAL mode, a new file written and forced). The
 * process prints the wall-clock time at which the save returned ({@code saved-at <epoch nanoseconds>}), so a launcher
 * that noted when it started the process ({@link ColdStartMain}) has the time from JVM start to the first acknowledged
 * save; closing the store and the JVM's exit come after it.
 */
public final class FirstSaveMain {
    /** The raw modes' record: as many bytes as our document of the same checkpoint, near enough. */
    private static final byte[] RAW_VALUE = "x".repeat(400).getBytes(StandardCharsets.UTF_8);

    private FirstSaveMain() {}

    public static void main(String[] args) {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: FirstSaveMain ours-sqlite|ours-file|raw-sqlite|raw-file <dir>");
        }
        Path directory = Path.of(args[1]);
        switch (args[0]) {
            case "ours-sqlite" ->
                saveOurs(Map.of(
                        "agent.persistence.provider",
                        "jdbc",
                        "agent.persistence.jdbc.url",
                        "jdbc:sqlite:" + directory.resolve("first.db")));
            case "ours-file" ->
                saveOurs(Map.of(
                        "agent.persistence.provider",
                        "file",
                        "agent.persistence.file.dir",
                        directory.resolve("store").toString()));
            case "raw-sqlite" -> {
                var store = new RawJdbcStore(
                        "jdbc:sqlite:" + directory.resolve("raw.db"), "raw", "(k TEXT PRIMARY KEY, v BLOB)", true);
                store.write("first", RAW_VALUE);
                printSaved();
                store.close();
            }
            case "raw-file" -> {
                new RawFileStore(directory.resolve("raw"), true).write("first", RAW_VALUE);
                printSaved();
            }
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    private static void saveOurs(Map<String, String> settings) {
        try (PersistenceStorageProvider<CheckpointFilter> provider =
                PersistenceStorageProviders.load(ProviderConfig.of(settings))) {
            provider.saveCheckpoint(
                    "first-agent",
                    AgentCheckpoint.builder()
                            .checkpointId("first")
                            .agentId("first-agent")
                            .version(0)
                            .createdAt(Instant.now())
                            .nodeId("start")
                            .message(Message.user("What is the weather in Kyoto tomorrow?"))
                            .build());
            printSaved();
        }
    }

    private static void printSaved() {
        Instant now = Instant.now();
        System.out.println("saved-at " + (now.getEpochSecond() * 1_000_000_000L + now.getNano()));
    }
}
