package dev.agentpersistence.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.redis.internal.AgentKeys;
import dev.agentpersistence.redis.internal.IndexValues;
import dev.agentpersistence.redis.internal.RedisKeys;
import dev.agentpersistence.storage.StorageShell;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/**
 * Stores written in the first layout by the older build's own scripts ({@link FirstLayoutWriter}): read and extended by
 * today's provider, and today's agents extended and trimmed by the older build's scripts, without a fork or a
 * checkpoint that should not be there.
 */
class RedisLayoutUpgradeTest {
    private static final String AGENT = "agent";

    @AfterAll
    static void removeKeys() {
        if (SharedRedis.answers(SharedRedis.uri())) {
            SharedRedis.deleteKeys(SharedRedis.uri(), SharedRedis.RUN_PREFIX);
        }
    }

    @Test
    void aFirstLayoutStoreReadsFiltersAndTakesNewSaves() {
        String prefix = SharedRedis.uniquePrefix();
        var earlier = LongStream.range(0, 5)
                .mapToObj(RedisLayoutUpgradeTest::checkpoint)
                .toList();
        try (var first = firstLayout(prefix)) {
            earlier.forEach(checkpoint -> first.saveCheckpoint(AGENT, checkpoint));
        }
        try (var provider = today(prefix);
                var jedis = SharedRedis.connect(SharedRedis.uri())) {
            assertThat(provider.getLatestCheckpoint(AGENT)).contains(earlier.get(4));
            assertThat(provider.getCheckpoint(AGENT, "cp-1")).contains(earlier.get(1));
            assertThat(provider.getCheckpoints(AGENT)).containsExactlyElementsOf(earlier);
            assertThat(provider.getCheckpoints(AGENT, evenNodes().build()))
                    .containsExactly(earlier.get(0), earlier.get(2), earlier.get(4));

            var later = List.of(checkpoint(5), checkpoint(6));
            later.forEach(checkpoint -> provider.saveCheckpoint(AGENT, checkpoint));
            provider.saveCheckpoint(AGENT, earlier.get(2)); // identical: no-op
            assertThatThrownBy(() -> provider.saveCheckpoint(
                            AGENT, earlier.get(2).toBuilder().nodeId("other").build()))
                    .isInstanceOf(CheckpointConflictException.class);
            assertThatThrownBy(() -> provider.saveCheckpoint(
                            AGENT, earlier.get(1).toBuilder().version(7).build()))
                    .isInstanceOf(CheckpointConflictException.class);

            assertThat(provider.getCheckpoints(AGENT, evenNodes().build()))
                    .containsExactly(earlier.get(0), earlier.get(2), earlier.get(4), later.get(1));
            assertThat(provider.getCheckpoints(
                            AGENT, evenNodes().maxVersion(5L).limit(2).build()))
                    .containsExactly(earlier.get(2), earlier.get(4));
            assertThat(provider.getCheckpoints(
                            AGENT,
                            CheckpointFilter.builder()
                                    .createdAfter(earlier.get(4).createdAt())
                                    .createdBefore(later.get(1).createdAt())
                                    .build()))
                    .containsExactly(earlier.get(4), later.get(0));
            assertThat(provider.getLatestCheckpoint(
                            AGENT, CheckpointFilter.builder().maxVersion(4L).build()))
                    .contains(earlier.get(4));

            assertThat(provider.deleteCheckpointsBefore(AGENT, 3)).isEqualTo(3);
            assertThat(provider.getCheckpoints(AGENT))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(3L, 4L, 5L, 6L);
            AgentKeys keys = new RedisKeys(prefix).agent(AGENT);
            assertThat(jedis.hkeys(AgentKeys.describe(keys.attributes())))
                    .containsExactlyInAnyOrder(version(3), version(4), version(5), version(6));
            assertThat(jedis.zrange(AgentKeys.describe(keys.createdAt()), 0, -1))
                    .containsExactly(version(3), version(4));
            assertThat(jedis.hlen(keys.ids())).isEqualTo(4);
            assertThat(provider.deleteCheckpointsBefore(AGENT, Long.MAX_VALUE)).isEqualTo(4);
            for (byte[] key : keys.all()) {
                assertThat(jedis.exists(key)).as(AgentKeys.describe(key)).isFalse();
            }
        }
    }

    @Test
    void theFirstLayoutsSaveExtendsTodaysAgentAndMeetsItsConflicts() {
        String prefix = SharedRedis.uniquePrefix();
        try (var provider = today(prefix);
                var first = firstLayout(prefix)) {
            provider.saveCheckpoint(AGENT, checkpoint(0));
            provider.saveCheckpoint(AGENT, checkpoint(1));
            first.saveCheckpoint(AGENT, checkpoint(2));
            assertThatThrownBy(() -> first.saveCheckpoint(
                            AGENT, checkpoint(1).toBuilder().nodeId("other").build()))
                    .isInstanceOf(CheckpointConflictException.class);
            assertThatThrownBy(() -> first.saveCheckpoint(
                            AGENT, checkpoint(0).toBuilder().version(3).build()))
                    .isInstanceOf(CheckpointConflictException.class);
            provider.saveCheckpoint(AGENT, checkpoint(3));

            assertThat(provider.getCheckpoints(AGENT))
                    .containsExactly(checkpoint(0), checkpoint(1), checkpoint(2), checkpoint(3));
            assertThat(provider.getCheckpoints(AGENT, evenNodes().build()))
                    .containsExactly(checkpoint(0), checkpoint(2));
            assertThat(provider.getCheckpoint(AGENT, "cp-2")).contains(checkpoint(2));
        }
    }

    /** The older build's deleteCheckpointsBefore removes today's checkpoints completely. */
    @Test
    void theFirstLayoutsDeletionRemovesTodaysCheckpoints() {
        String prefix = SharedRedis.uniquePrefix();
        try (var provider = today(prefix);
                var jedis = SharedRedis.connect(SharedRedis.uri());
                var client = RedisClient.create(URI.create(SharedRedis.uri()))) {
            LongStream.range(0, 3).forEach(v -> provider.saveCheckpoint(AGENT, checkpoint(v)));
            var earlier = new FirstLayoutWriter(client, prefix, Clock.systemUTC());
            assertThat(earlier.deleteBefore(AGENT, 2)).isEqualTo(2);
            AgentKeys keys = new RedisKeys(prefix).agent(AGENT);
            for (byte[] hash : List.of(keys.bodies(), keys.attributes(), keys.ids())) {
                assertThat(jedis.hlen(hash)).as(AgentKeys.describe(hash)).isEqualTo(1);
            }

            assertThat(provider.getCheckpoints(AGENT)).containsExactly(checkpoint(2));
            assertThat(provider.getCheckpoint(AGENT, "cp-0")).isEmpty();
            var again = checkpoint(0).toBuilder().nodeId("new owner").build();
            provider.saveCheckpoint(AGENT, again);
            var sameId = checkpoint(1).toBuilder().version(3).build();
            provider.saveCheckpoint(AGENT, sameId);
            assertThat(provider.getCheckpoints(AGENT)).containsExactly(again, checkpoint(2), sameId);
            assertThat(provider.getCheckpoint(AGENT, "cp-1")).contains(sameId);
        }
    }

    private static CheckpointFilter.Builder evenNodes() {
        return CheckpointFilter.builder().nodeId("even").metadata("parity", "even");
    }

    private static AgentCheckpoint checkpoint(long version) {
        String parity = version % 2 == 0 ? "even" : "odd";
        return Fixtures.builder(AGENT, version)
                .nodeId(parity)
                .metadata("parity", parity)
                .build();
    }

    private static String version(long version) {
        return IndexValues.version(version);
    }

    private static StorageShell today(String prefix) {
        return RedisStorage.builder(RedisStorageConfig.custom()
                        .uri(SharedRedis.uri())
                        .keyPrefix(prefix)
                        .build())
                .build();
    }

    private static StorageShell firstLayout(String prefix) {
        return MixedLayoutBackend.provider(SharedRedis.uri(), prefix, version -> true)
                .build();
    }
}
