package dev.agentpersistence.reliability;

import dev.agentpersistence.pipeline.Condition;
import dev.agentpersistence.pipeline.Node;
import dev.agentpersistence.pipeline.Pipeline;
import dev.agentpersistence.pipeline.StateCodec;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.io.FileInputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The pipeline run {@link PipelineKillTest} kills: {@value #NODES} nodes, each appending its name to the state after a
 * short piece of work, journaling every start. Arguments: {@code <provider> <settings.properties> <runId> <journal>}.
 * Prints {@code READY}, then one {@code RESULT ...} line if it is not killed first.
 */
public final class PipelineChildMain {
    static final int NODES = 10;

    /** The pipeline state: the nodes that ran, in order. */
    public record Progress(List<String> done) {
        Progress plus(String node) {
            var list = new ArrayList<>(done);
            list.add(node);
            return new Progress(List.copyOf(list));
        }
    }

    private PipelineChildMain() {}

    static List<String> nodeNames() {
        var names = new ArrayList<String>();
        for (int i = 1; i <= NODES; i++) {
            names.add("step-" + i);
        }
        return names;
    }

    /** The state after {@code node}: every node up to it, once each, in order. */
    static List<String> expectedAfter(String node) {
        var names = nodeNames();
        return List.copyOf(names.subList(0, names.indexOf(node) + 1));
    }

    static Pipeline<Progress> pipeline(dev.agentpersistence.PersistenceStorageProvider<?> storage, Path journal) {
        var builder = Pipeline.builder("killed-pipeline", StateCodec.jackson(Progress.class))
                .storage(storage);
        for (String name : nodeNames()) {
            builder.node(Node.<Progress>builder(name)
                    .postcondition(Condition.<Progress>of(
                            "ran-once",
                            state -> state.done().equals(expectedAfter(name))
                                    ? List.of()
                                    : List.of("expected " + expectedAfter(name) + " but was " + state.done())))
                    .action(ctx -> {
                        Files.writeString(
                                journal,
                                "start " + name + "\n",
                                StandardCharsets.UTF_8,
                                StandardOpenOption.CREATE,
                                StandardOpenOption.APPEND);
                        Thread.sleep(20 + ThreadLocalRandom.current().nextInt(60));
                        return ctx.state().plus(name);
                    })
                    .build());
        }
        return builder.build();
    }

    public static void main(String[] args) throws Exception {
        var out =
                new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
        var properties = new Properties();
        try (var in = new FileInputStream(args[1])) {
            properties.load(in);
        }
        var settings = new LinkedHashMap<String, String>();
        properties.stringPropertyNames().forEach(k -> settings.put(k, properties.getProperty(k)));
        try (var storage = PersistenceStorageProviders.load(args[0], ProviderConfig.of(settings))) {
            var pipeline = pipeline(storage, Path.of(args[3]));
            out.println("READY");
            var result = pipeline.run(args[2], new Progress(List.of()));
            out.println("RESULT " + result.status() + " executed=" + result.executedNodes() + " resumedAfter="
                    + result.resumedAfter().orElse("-") + " done="
                    + result.state().done());
        }
    }
}
