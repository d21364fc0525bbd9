package dev.agentpersistence.benchmarks.coldstart;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import java.time.Instant;

/**
 * Fills a store for the command line's cold-start figures: {@code AgentStoreMain <store URI> [agents] [checkpoints]}
 * saves {@code checkpoints} small checkpoints (default 3) for each of {@code agents} agents (default 1,000), named
 * {@code agent-0}, {@code agent-1}, ….
 */
public final class AgentStoreMain {
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private AgentStoreMain() {}

    public static void main(String[] args) {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: AgentStoreMain <store URI> [agents] [checkpoints]");
        }
        int agents = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
        int checkpoints = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        try (PersistenceStorageProvider<CheckpointFilter> provider =
                StorageUri.parse(args[0], ProviderConfig.empty()).open()) {
            for (int i = 0; i < agents; i++) {
                String agent = "agent-" + i;
                for (int v = 0; v < checkpoints; v++) {
                    provider.saveCheckpoint(
                            agent,
                            AgentCheckpoint.builder()
                                    .checkpointId("cp-" + v)
                                    .agentId(agent)
                                    .version(v)
                                    .createdAt(START.plusSeconds(i * 10L + v))
                                    .nodeId("node-" + v)
                                    .message(Message.user("hello " + i + " " + v))
                                    .build());
                }
            }
        }
    }
}
