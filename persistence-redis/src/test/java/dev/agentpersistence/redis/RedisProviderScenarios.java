package dev.agentpersistence.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.redis.internal.AgentKeys;
import dev.agentpersistence.redis.internal.IndexValues;
import dev.agentpersistence.redis.internal.RedisKeys;
import dev.agentpersistence.storage.StorageShell;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Redis-specific scenarios run against a standalone server and a cluster: the filters checked against
 * {@link CheckpointFilter#apply} as the reference on a varied data set, index consistency after conflicts and races,
 * corrupt stored data, a flushed script cache, the key layout.
 */
abstract class RedisProviderScenarios {
    private final List<StorageShell> opened = new ArrayList<>();
    private final String run = Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36);

    /** A provider over this test's storage; every call in one test sees the same data. */
    abstract StorageShell createProvider();

    /** A client over the same Redis, for looking at (and damaging) what the provider wrote. */
    abstract UnifiedJedis raw();

    /** The key prefix {@link #createProvider()} uses. */
    abstract String keyPrefix();

    /** Empties the server's script cache (every node of a cluster). */
    abstract void flushScripts();

    final StorageShell provider() {
        var provider = createProvider();
        opened.add(provider);
        return provider;
    }

    final String agent(String label) {
        return label + "-" + run;
    }

    final AgentKeys keysOf(String agentId) {
        return new RedisKeys(keyPrefix()).agent(agentId);
    }

    @AfterEach
    void closeProviders() {
        opened.forEach(StorageShell::close);
    }

    @Test
    void versionAndLimitQueriesAgreeWithTheReferenceAcrossSeveralPages() {
        var provider = provider();
        String agent = agent("paging");
        var all = new ArrayList<AgentCheckpoint>();
        for (long version = 0; version < 600; version += 2) {
            var checkpoint = Fixtures.simple(agent, version);
            provider.saveCheckpoint(agent, checkpoint);
            all.add(checkpoint);
        }
        assertThat(provider.getLatestCheckpoint(agent)).contains(all.get(all.size() - 1));
        for (Integer limit : java.util.Arrays.asList(null, 1, 3, 255, 256, 257, 300)) {
            for (Long maxVersion : java.util.Arrays.asList(null, 0L, 301L, 598L, 1000L)) {
                var filter = CheckpointFilter.builder()
                        .limit(limit)
                        .maxVersion(maxVersion)
                        .build();
                List<AgentCheckpoint> expected = filter.apply(all);
                assertThat(provider.getCheckpoints(agent, filter))
                        .as("limit %s, maxVersion %s", limit, maxVersion)
                        .isEqualTo(expected);
                assertThat(provider.getLatestCheckpoint(agent, filter))
                        .as("latest, maxVersion %s", maxVersion)
                        .isEqualTo(
                                expected.isEmpty() ? Optional.empty() : Optional.of(expected.get(expected.size() - 1)));
            }
        }
    }

    @Test
    void filtersAgreeWithTheReferenceImplementation() {
        var provider = provider();
        String agent = agent("filters");
        var random = new Random(20260314);
        var all = new ArrayList<AgentCheckpoint>();
        List<String> nodes = java.util.Arrays.asList("a", "b", "c {tag}", null, AgentCheckpoint.TOMBSTONE_NODE_ID);
        long version = 0;
        for (int i = 0; i < 120; i++) {
            version += 1 + random.nextInt(3);
            // times in a narrow window, not in version order, several in one millisecond
            Instant created = Fixtures.BASE.plusMillis(random.nextInt(40)).plusNanos(random.nextInt(3) * 1000L);
            var metadata = new HashMap<String, String>();
            if (random.nextBoolean()) {
                metadata.put("env", random.nextBoolean() ? "prod" : "dev");
            }
            if (random.nextInt(3) == 0) {
                metadata.put("ü k", random.nextBoolean() ? "1" : "2");
            }
            var checkpoint = Fixtures.builder(agent, version)
                    .checkpointId("id-" + version)
                    .createdAt(created)
                    .nodeId(nodes.get(random.nextInt(nodes.size())))
                    .metadata(metadata)
                    .build();
            all.add(checkpoint);
        }
        long huge = Long.MAX_VALUE - 1;
        all.add(Fixtures.builder(agent, 0)
                .version(huge)
                .checkpointId("huge")
                .createdAt(Fixtures.BASE.plusMillis(20))
                .build());
        var shuffled = new ArrayList<>(all);
        Collections.shuffle(shuffled, random);
        shuffled.forEach(cp -> provider.saveCheckpoint(agent, cp));

        for (int i = 0; i < 250; i++) {
            var f = CheckpointFilter.builder();
            if (random.nextInt(4) == 0) {
                String node = nodes.get(random.nextInt(nodes.size()));
                f.nodeId(node == null ? "missing" : node);
            }
            if (random.nextInt(3) == 0) {
                f.createdAfter(Fixtures.BASE.plusMillis(random.nextInt(42)).plusNanos(random.nextInt(3) * 1000L));
            }
            if (random.nextInt(3) == 0) {
                f.createdBefore(Fixtures.BASE.plusMillis(random.nextInt(42)).plusNanos(random.nextInt(3) * 1000L));
            }
            if (random.nextInt(3) == 0) {
                f.maxVersion(random.nextInt(10) == 0 ? huge : (long) random.nextInt((int) version + 2));
            }
            if (random.nextInt(3) == 0) {
                f.limit(1 + random.nextInt(12));
            }
            if (random.nextInt(4) == 0) {
                f.metadata("env", random.nextBoolean() ? "prod" : "dev");
            }
            if (random.nextInt(6) == 0) {
                f.metadata("ü k", "1");
            }
            f.includeTombstones(random.nextInt(3) != 0);
            var filter = f.build();
            var expected = filter.apply(all);
            assertThat(provider.getCheckpoints(agent, filter)).as("%s", filter).containsExactlyElementsOf(expected);
            assertThat(provider.getLatestCheckpoint(agent, filter))
                    .as("latest %s", filter)
                    .isEqualTo(expected.isEmpty() ? Optional.empty() : Optional.of(expected.get(expected.size() - 1)));
        }
    }

    @Test
    void createdAtBoundariesAreExactEvenWithinOneMillisecond() {
        var provider = provider();
        String agent = agent("boundaries");
        Instant t = Instant.parse("2026-01-01T00:00:00.123456789Z");
        for (int v = 0; v < 3; v++) {
            provider.saveCheckpoint(
                    agent, Fixtures.builder(agent, v).createdAt(t.plusNanos(v)).build());
        }
        var afterMiddle =
                CheckpointFilter.builder().createdAfter(t.plusNanos(1)).build();
        var beforeMiddle =
                CheckpointFilter.builder().createdBefore(t.plusNanos(1)).build();
        assertThat(provider.getCheckpoints(agent, afterMiddle))
                .extracting(AgentCheckpoint::version)
                .containsExactly(1L, 2L);
        assertThat(provider.getCheckpoints(agent, beforeMiddle))
                .extracting(AgentCheckpoint::version)
                .containsExactly(0L);
    }

    @Test
    void extremeInstantsAreIndexedInOrder() {
        var provider = provider();
        String agent = agent("extremes");
        provider.saveCheckpoint(
                agent, Fixtures.builder(agent, 0).createdAt(Instant.MIN).build());
        provider.saveCheckpoint(
                agent, Fixtures.builder(agent, 1).createdAt(Instant.EPOCH).build());
        provider.saveCheckpoint(
                agent, Fixtures.builder(agent, 2).createdAt(Instant.MAX).build());
        var notMin = CheckpointFilter.builder()
                .createdAfter(Instant.MIN.plusNanos(1))
                .build();
        var beforeMax = CheckpointFilter.builder().createdBefore(Instant.MAX).build();
        assertThat(provider.getCheckpoints(agent, notMin))
                .extracting(AgentCheckpoint::version)
                .containsExactly(1L, 2L);
        assertThat(provider.getCheckpoints(agent, beforeMax))
                .extracting(AgentCheckpoint::version)
                .containsExactly(0L, 1L);
        assertThat(provider.getCheckpoints(agent).get(2).createdAt()).isEqualTo(Instant.MAX);
    }

    @Test
    void conflictsLeaveEveryIndexUnchangedAndIdenticalSavesAreNoOps() {
        var provider = provider();
        String agent = agent("conflicts");
        var first = Fixtures.simple(agent, 0);
        provider.saveCheckpoint(agent, first);
        provider.saveCheckpoint(agent, first);
        provider.saveCheckpoint(agent, Fixtures.simple(agent, 0).toBuilder().build());

        assertThatThrownBy(() -> provider.saveCheckpoint(
                        agent, first.toBuilder().nodeId("other").build()))
                .isInstanceOf(CheckpointConflictException.class)
                .hasMessageContaining("version 0");
        assertThatThrownBy(() -> provider.saveCheckpoint(
                        agent, first.toBuilder().version(5).build()))
                .isInstanceOf(CheckpointConflictException.class)
                .hasMessageContaining("cp-0");

        var keys = keysOf(agent);
        var raw = raw();
        assertThat(raw.zcard(keys.versions())).isEqualTo(1);
        assertThat(raw.hlen(keys.bodies())).isEqualTo(1);
        assertThat(raw.hlen(keys.attributes())).isEqualTo(1);
        assertThat(raw.hlen(keys.ids())).isEqualTo(1);
        // only saves of older builds write the creation-time index
        assertThat(raw.exists(keys.createdAt())).isFalse();
        assertThat(provider.getCheckpoints(agent)).containsExactly(first);
    }

    @Test
    void racingWritersOnOneVersionOrOneIdLeaveExactlyOneWinner() throws Exception {
        String agent = agent("race");
        var providers = List.of(provider(), provider());
        int threads = 16;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 3; round++) {
                long version = round;
                var start = new CountDownLatch(1);
                var results = new ArrayList<Future<Boolean>>();
                for (int t = 0; t < threads; t++) {
                    var mine = Fixtures.builder(agent, round % 2 == 0 ? version : 100 + t)
                            .checkpointId(round % 2 == 0 ? "v" + version + "-" + t : "same-id-" + round)
                            .nodeId("writer-" + t)
                            .build();
                    var provider = providers.get(t % 2);
                    results.add(pool.submit(() -> {
                        start.await();
                        try {
                            provider.saveCheckpoint(agent, mine);
                            return true;
                        } catch (CheckpointConflictException e) {
                            return false;
                        }
                    }));
                }
                start.countDown();
                int winners = 0;
                for (var result : results) {
                    winners += result.get(30, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertThat(winners).as("round %d", round).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
        var stored = provider().getCheckpoints(agent);
        assertThat(stored).hasSize(3);
        var keys = keysOf(agent);
        assertThat(raw().hlen(keys.bodies())).isEqualTo(3);
        assertThat(raw().hlen(keys.ids())).isEqualTo(3);
        assertThat(raw().hlen(keys.attributes())).isEqualTo(3);
    }

    @Test
    void deletionsKeepTheIndexesConsistent() {
        var provider = provider();
        String agent = agent("delete {me}");
        String other = agent("other");
        for (int v = 0; v < 10; v++) {
            provider.saveCheckpoint(agent, Fixtures.simple(agent, v));
        }
        provider.saveCheckpoint(other, Fixtures.simple(other, 0));

        assertThat(provider.deleteCheckpointsBefore(agent, 0)).isZero();
        assertThat(provider.deleteCheckpointsBefore(agent, 4)).isEqualTo(4);
        assertThat(provider.deleteCheckpointsBefore(agent, 4)).isZero();
        assertThat(provider.getCheckpoints(agent))
                .extracting(AgentCheckpoint::version)
                .containsExactly(4L, 5L, 6L, 7L, 8L, 9L);
        assertThat(provider.getCheckpoint(agent, "cp-2")).isEmpty();
        // a freed id can be used again
        provider.saveCheckpoint(
                agent, Fixtures.builder(agent, 10).checkpointId("cp-2").build());
        assertThat(provider.getCheckpoint(agent, "cp-2"))
                .map(AgentCheckpoint::version)
                .contains(10L);
        var keys = keysOf(agent);
        assertThat(raw().hlen(keys.ids())).isEqualTo(7);
        assertThat(raw().hlen(keys.attributes())).isEqualTo(7);

        assertThat(provider.listAgents()).contains(agent, other);
        assertThat(provider.deleteCheckpointsBefore(agent, Long.MAX_VALUE)).isEqualTo(7);
        assertThat(provider.listAgents()).doesNotContain(agent).contains(other);
        for (byte[] key : keys.all()) {
            assertThat(raw().exists(key)).as(AgentKeys.describe(key)).isFalse();
        }
        provider.saveCheckpoint(agent, Fixtures.simple(agent, 0));
        assertThat(provider.deleteCheckpoints(agent)).isEqualTo(1);
        assertThat(provider.deleteCheckpoints(agent)).isZero();
        assertThat(provider.listAgents()).doesNotContain(agent).contains(other);
        assertThat(provider.getCheckpoints(other)).hasSize(1);
    }

    @Test
    void hostileAgentIdsAreIsolatedListedAndKeptInOneSlot() {
        var provider = provider();
        var ids = new ArrayList<String>();
        for (String hostile : List.of(
                "{tag}",
                "}{",
                "{",
                "}",
                "a:b",
                "*",
                "with spaces",
                "🙂 emoji",
                "日本語",
                "../../etc/passwd",
                "%2F",
                "'; DROP TABLE x;--",
                "x".repeat(200))) {
            ids.add(hostile + " " + run);
        }
        for (int i = 0; i < ids.size(); i++) {
            provider.saveCheckpoint(
                    ids.get(i), Fixtures.builder(ids.get(i), 0).nodeId("n" + i).build());
        }
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            String node = "n" + i;
            var keys = keysOf(id);
            int slot = JedisClusterCRC16.getSlot(keys.versions());
            for (byte[] key : keys.all()) {
                assertThat(JedisClusterCRC16.getSlot(key))
                        .as(AgentKeys.describe(key))
                        .isEqualTo(slot);
                assertThat(AgentKeys.describe(key)).startsWith(keyPrefix() + "{");
            }
            assertThat(provider.getCheckpoints(id))
                    .singleElement()
                    .satisfies(cp -> assertThat(cp.agentId()).isEqualTo(id))
                    .satisfies(cp -> assertThat(cp.nodeId()).isEqualTo(node));
        }
        var listed = provider.listAgents();
        var expected = new ArrayList<>(ids);
        Collections.sort(expected);
        assertThat(listed.stream().filter(ids::contains).toList()).isEqualTo(expected);
        assertThat(listed).isSorted();
    }

    @Test
    void corruptStoredDataIsReportedWithItsKey() {
        var provider = provider();
        String agent = agent("corrupt");
        provider.saveCheckpoint(agent, Fixtures.simple(agent, 0));
        provider.saveCheckpoint(agent, Fixtures.simple(agent, 1));
        var keys = keysOf(agent);
        raw().hset(keys.bodies(), bytes(IndexValues.version(1)), bytes("{\"formatVersion\":1,\"trunc"));

        assertThatThrownBy(() -> provider.getCheckpoints(agent))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining(agent)
                .hasMessageContaining(AgentKeys.describe(keys.bodies()));
        assertThatThrownBy(() -> provider.getCheckpoint(agent, "cp-1"))
                .isInstanceOf(CorruptCheckpointException.class)
                .satisfies(e -> assertThat(((CorruptCheckpointException) e).checkpointId())
                        .isEqualTo("cp-1"));
        assertThat(provider.getCheckpoint(agent, "cp-0")).isPresent();

        raw().hset(keys.attributes(), bytes(IndexValues.version(0)), bytes("not json"));
        assertThatThrownBy(() -> provider.getCheckpoints(
                        agent, CheckpointFilter.builder().nodeId("node").build()))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining(AgentKeys.describe(keys.attributes()));
    }

    @Test
    void worksAfterTheServerForgetsItsScripts() {
        var provider = provider();
        String agent = agent("scripts");
        provider.saveCheckpoint(agent, Fixtures.simple(agent, 0));
        flushScripts();
        provider.saveCheckpoint(agent, Fixtures.simple(agent, 1));
        flushScripts();
        assertThat(provider.getCheckpoints(agent)).hasSize(2);
        flushScripts();
        assertThat(provider.getCheckpoint(agent, "cp-0")).isPresent();
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
