package dev.agentpersistence.tck;

import dev.agentpersistence.AgentCheckpoint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Twelve checkpoints of one agent that every filter test reads:
 *
 * <pre>
 * version  nodeId   phase  owner   (createdAt = BASE + version minutes + version ns)
 *  0       plan     draft  alice
 *  1       write    draft  bob
 *  2       review   draft  alice
 *  3       plan     draft  bob
 *  4       tombstone
 *  5       review   draft  bob
 *  6       plan     final  alice
 *  7       write    final  bob
 *  8       review   final  alice
 *  9       plan     final  bob
 * 10       write    final  alice
 * 11       tombstone
 * </pre>
 *
 * Saved in a shuffled order so that no provider can rely on insertion order.
 */
final class FilterDataset {
    static final int SIZE = 12;
    private static final String[] NODES = {"plan", "write", "review"};

    private FilterDataset() {}

    static Instant createdAt(long version) {
        return Checkpoints.BASE_TIME.plusSeconds(60 * version).plusNanos(version);
    }

    static AgentCheckpoint checkpoint(String agentId, int version) {
        if (version == 4 || version == 11) {
            return AgentCheckpoint.tombstone(agentId, version, createdAt(version));
        }
        return Checkpoints.builder(agentId, version)
                .createdAt(createdAt(version))
                .nodeId(NODES[version % 3])
                .metadata("phase", version < 6 ? "draft" : "final")
                .metadata("owner", version % 2 == 0 ? "alice" : "bob")
                .build();
    }

    /** All twelve, ascending. */
    static List<AgentCheckpoint> all(String agentId) {
        var all = new ArrayList<AgentCheckpoint>();
        for (int v = 0; v < SIZE; v++) {
            all.add(checkpoint(agentId, v));
        }
        return all;
    }

    /** Saves all twelve in a fixed shuffled order and returns them ascending. */
    static List<AgentCheckpoint> save(Contract contract, String agentId) {
        var all = all(agentId);
        var shuffled = new ArrayList<>(all);
        Collections.shuffle(shuffled, new Random(20260314));
        contract.saveAll(agentId, shuffled);
        return all;
    }
}
