package dev.agentpersistence.reliability;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.io.FileInputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Properties;

/**
 * The process {@link CrashTest} kills: saves {@link Samples} checkpoints of one agent in a loop, continuing after the
 * newest stored one, and prints {@code ACK <version>} after each save returned. Arguments: {@code <provider> <agentId>
 * <settings.properties> [<s3proxy dir> <s3proxy port>]}; with the last two it first serves S3 itself over that
 * directory, so the kill takes the server down too.
 */
public final class CrashChildMain {
    private CrashChildMain() {}

    public static void main(String[] args) throws Exception {
        var out =
                new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
        try {
            var properties = new Properties();
            try (var in = new FileInputStream(args[2])) {
                properties.load(in);
            }
            var settings = new LinkedHashMap<String, String>();
            properties.stringPropertyNames().forEach(k -> settings.put(k, properties.getProperty(k)));
            if (args.length > 3) {
                LocalS3.start(Path.of(args[3]), Integer.parseInt(args[4]));
            }
            String agent = args[1];
            try (var storage = PersistenceStorageProviders.load(args[0], ProviderConfig.of(settings))) {
                long next = storage.getLatestCheckpoint(agent)
                        .map(AgentCheckpoint::version)
                        .map(v -> v + 1)
                        .orElse(0L);
                out.println("READY " + next);
                while (true) {
                    storage.saveCheckpoint(agent, Samples.of(agent, next));
                    out.println("ACK " + next);
                    next++;
                }
            }
        } catch (Throwable e) {
            out.println("ERROR " + e);
            e.printStackTrace(out);
            System.exit(2);
        }
    }
}
