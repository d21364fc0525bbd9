package dev.agentpersistence.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.redis.internal.AgentKeys;
import dev.agentpersistence.storage.StorageShell;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * {@link RedisProviderScenarios} against a three-master Redis Cluster this test starts, plus proof that different
 * agents land on different slots and nodes while one agent stays in one slot.
 */
@ExtendWith(RedisClusterExtension.class)
class ClusterRedisScenariosTest extends RedisProviderScenarios {
    private static RedisTestCluster cluster;

    private String prefix;
    private RedisClusterClient raw;

    @BeforeAll
    static void useCluster(RedisTestCluster started) {
        cluster = started;
    }

    @BeforeEach
    void connect() {
        prefix = "agent-persistence-test:"
                + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36) + ":";
        raw = clusterClient(cluster);
    }

    @AfterEach
    void closeRaw() {
        if (raw != null) {
            raw.close();
        }
    }

    static RedisClusterClient clusterClient(RedisTestCluster cluster) {
        var nodes = new LinkedHashSet<HostAndPort>();
        cluster.nodes().forEach(node -> nodes.add(HostAndPort.from(node)));
        return RedisClusterClient.create(nodes);
    }

    @Override
    StorageShell createProvider() {
        return RedisStorage.builder(RedisStorageConfig.custom()
                        .clusterNodes(cluster.nodes())
                        .keyPrefix(prefix)
                        .build())
                .build();
    }

    @Override
    UnifiedJedis raw() {
        return raw;
    }

    @Override
    String keyPrefix() {
        return prefix;
    }

    @Override
    void flushScripts() {
        for (var node : cluster.processes()) {
            RedisServerProcess.run(node.cli("script", "flush"));
        }
    }

    @Test
    void agentsSpreadOverSlotsAndNodesAndAreListedTogether() {
        var provider = provider();
        var agents = new ArrayList<String>();
        Set<Integer> slots = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            String agent = agent("spread " + i + " {" + i + "}");
            agents.add(agent);
            provider.saveCheckpoint(agent, Fixtures.simple(agent, 0));
            provider.saveCheckpoint(agent, Fixtures.simple(agent, 1));
            slots.add(JedisClusterCRC16.getSlot(keysOf(agent).versions()));
        }
        assertThat(slots).hasSizeGreaterThan(30);

        var nodesHoldingData = new ArrayList<String>();
        for (var node : cluster.processes()) {
            String keys = RedisServerProcess.run(node.cli("--scan", "--pattern", prefix + "*"));
            if (!keys.isBlank()) {
                nodesHoldingData.add(node.hostAndPort());
            }
        }
        assertThat(nodesHoldingData).as("nodes holding this test's keys").hasSize(3);

        // every key of one agent is in one slot, confirmed by the server
        for (String agent : agents.subList(0, 5)) {
            var keys = keysOf(agent);
            Set<String> serverSlots = new HashSet<>();
            for (byte[] key : keys.all()) {
                var node = cluster.processes().get(0);
                serverSlots.add(RedisServerProcess.run(node.cli("cluster", "keyslot", AgentKeys.describe(key)))
                        .trim());
            }
            assertThat(serverSlots).as(agent).hasSize(1);
        }

        agents.sort(null);
        assertThat(provider.listAgents().stream().filter(agents::contains).toList())
                .isEqualTo(agents);
        assertThat(provider.deleteCheckpoints(agents.get(0))).isEqualTo(2);
        assertThat(provider.listAgents()).doesNotContain(agents.get(0)).contains(agents.get(1));
        assertThat(provider.getCheckpoints(agents.get(1))).hasSize(2);
    }

    @Test
    void anApplicationSuppliedClusterClientIsUsedAndLeftOpen() {
        String agent = agent("supplied");
        try (var client = clusterClient(cluster)) {
            var provider = RedisStorage.builder(
                            RedisStorageConfig.custom().keyPrefix(prefix).build(), client)
                    .build();
            assertThat(provider.toString()).contains("cluster");
            provider.saveCheckpoint(agent, Fixtures.simple(agent, 0));
            assertThat(provider.listAgents()).contains(agent);
            provider.close();
            assertThat(client.exists(keysOf(agent).versions())).isTrue();
        }
        assertThat(provider().getCheckpoints(agent)).hasSize(1);
    }
}
