package dev.agentpersistence.examples.jsonl;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.SimpleAgentContext;
import dev.agentpersistence.examples.ConsoleOutput;
import dev.agentpersistence.examples.ExampleFiles;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The custom backend in use: discovered through {@code META-INF/services} next to the built-in providers, selected by
 * name and used through {@link AgentPersistence}; then read back and pruned through a storage shell built in code over
 * a new {@link JsonLinesStorageBackend}.
 */
public final class JsonLinesExample {
    private JsonLinesExample() {}

    /** Runs the example; the files go to {@code <examples dir>/jsonl/}. */
    public static void main(String[] args) throws IOException {
        Path directory = ExampleFiles.path("jsonl");
        if (Files.isDirectory(directory)) {
            try (var old = Files.walk(directory)) {
                old.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            }
        }
        run(directory, ConsoleOutput.utf8());
    }

    /**
     * Saves three checkpoints of an agent under {@code directory}, reads them back and prunes them; returns the agent
     * file's lines.
     */
    public static List<String> run(Path directory, PrintStream out) throws IOException {
        out.println("custom backend example: one JSON Lines file per agent under the storage shell, found through"
                + " META-INF/services");
        out.println("  providers on the class path: "
                + PersistenceStorageProviders.available().stream()
                        .map(PersistenceStorageProviderFactory::name)
                        .collect(Collectors.joining(", ")));
        ProviderConfig config = ProviderConfig.of(Map.of(
                ProviderConfig.PROVIDER,
                JsonLinesStorageProviderFactory.NAME,
                JsonLinesStorageProviderFactory.DIRECTORY.key(),
                directory.toString()));
        out.println("  selected with " + ProviderConfig.PROVIDER + "=jsonl, "
                + JsonLinesStorageProviderFactory.DIRECTORY.key() + "=" + directory);
        Path file = JsonLinesStorageBackend.file(directory, "note-taker");

        try (PersistenceStorageProvider<CheckpointFilter> storage = PersistenceStorageProviders.load(config)) {
            var persistence = AgentPersistence.builder().storage(storage).build();
            var agent = new SimpleAgentContext("note-taker");
            for (String node : List.of("read", "outline", "summarize")) {
                agent.append(Message.user("please " + node)).append(Message.assistant(node + " done"));
                persistence.createCheckpoint(agent, node, null, null);
            }
            out.println("  saved 3 checkpoints of agent 'note-taker' through AgentPersistence (" + storage + ")");
        }
        List<String> lines = Files.readAllLines(file);
        out.println("  the agent's file " + file.getFileName()
                + ": one line per checkpoint (attributes and the stored document)");
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            out.printf("    %d %s%n", i + 1, line.length() > 96 ? line.substring(0, 96) + "..." : line);
        }
        // the same backend in code: the storage shell over it, with the settings every provider shares
        try (StorageShell reopened = StorageShell.builder(new JsonLinesStorageBackend(directory))
                .settings(StorageSettings.ofDefaults())
                .build()) {
            AgentCheckpoint latest = reopened.getLatestCheckpoint("note-taker").orElseThrow();
            out.println("  built in code, StorageShell.builder(new JsonLinesStorageBackend(dir)) reads "
                    + reopened.getCheckpoints("note-taker").size() + " checkpoints; latest v" + latest.version()
                    + " at node '" + latest.nodeId() + "' with "
                    + latest.messageHistory().size() + " messages");
            int removed = reopened.deleteCheckpointsBefore("note-taker", latest.version());
            out.println("  retention: deleteCheckpointsBefore(" + latest.version() + ") removed " + removed
                    + "; the file was rewritten with "
                    + Files.readAllLines(file).size() + " lines");
        }
        out.println(
                "  conformance: mvn -pl examples test -Dtest='JsonLines*' runs the whole kit against it, every layer "
                        + "on");
        return lines;
    }
}
