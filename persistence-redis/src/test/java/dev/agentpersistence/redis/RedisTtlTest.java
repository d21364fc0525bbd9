package dev.agentpersistence.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.redis.internal.AgentKeys;
import dev.agentpersistence.redis.internal.RedisKeys;
import dev.agentpersistence.storage.StorageSettings;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/** The optional TTL on the shared server: every key of an agent expires together, each save refreshes it. */
class RedisTtlTest {
    private static final Duration TTL = Duration.ofMillis(2000);

    @AfterAll
    static void removeKeys() {
        if (SharedRedis.answers(SharedRedis.uri())) {
            SharedRedis.deleteKeys(SharedRedis.uri(), SharedRedis.RUN_PREFIX);
        }
    }

    @Test
    void keysExpireTogetherAndEachSaveRefreshesThem() {
        String uri = SharedRedis.uri();
        String prefix = SharedRedis.uniquePrefix();
        var config = RedisStorageConfig.custom().uri(uri).keyPrefix(prefix).build();
        AgentKeys keys = new RedisKeys(prefix).agent("ttl agent");
        try (var provider = RedisStorage.builder(config)
                        .settings(StorageSettings.custom().ttl(TTL).build())
                        .build();
                var raw = RedisClient.create(URI.create(uri))) {
            provider.saveCheckpoint("ttl agent", Fixtures.simple("ttl agent", 0));
            for (byte[] key : written(keys)) {
                assertThat(raw.pttl(key)).as(AgentKeys.describe(key)).isBetween(1L, TTL.toMillis());
            }

            RedisServerProcess.sleep(1000);
            long left = raw.pttl(keys.versions());
            assertThat(left).isLessThanOrEqualTo(TTL.toMillis() - 1000);
            provider.saveCheckpoint("ttl agent", Fixtures.simple("ttl agent", 1));
            for (byte[] key : written(keys)) {
                assertThat(raw.pttl(key))
                        .as("refreshed " + AgentKeys.describe(key))
                        .isGreaterThan(left);
            }
            assertThat(provider.listAgents()).containsExactly("ttl agent");

            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (raw.exists(keys.versions()) && System.nanoTime() < deadline) {
                RedisServerProcess.sleep(100);
            }
            for (byte[] key : written(keys)) {
                assertThat(raw.exists(key))
                        .as("expired " + AgentKeys.describe(key))
                        .isFalse();
            }
            assertThat(provider.getCheckpoints("ttl agent")).isEmpty();
            assertThat(provider.getCheckpoint("ttl agent", "cp-0")).isEmpty();
            byte[] index = (prefix + "agents").getBytes(StandardCharsets.UTF_8);
            assertThat(raw.sismember(index, "ttl agent".getBytes(StandardCharsets.UTF_8)))
                    .isTrue();
            assertThat(provider.listAgents()).isEmpty();
            assertThat(raw.sismember(index, "ttl agent".getBytes(StandardCharsets.UTF_8)))
                    .as("stale index entry removed by listAgents")
                    .isFalse();
        }
    }

    @Test
    void aProviderWithoutTtlMakesTheAgentsKeysPersistent() {
        String uri = SharedRedis.uri();
        String prefix = SharedRedis.uniquePrefix();
        AgentKeys keys = new RedisKeys(prefix).agent("agent");
        var config = RedisStorageConfig.custom().uri(uri).keyPrefix(prefix).build();
        try (var expiring = RedisStorage.builder(config)
                        .settings(StorageSettings.custom()
                                .ttl(Duration.ofMinutes(5))
                                .build())
                        .build();
                var lasting = RedisStorage.builder(config).build();
                var raw = RedisClient.create(URI.create(uri))) {
            expiring.saveCheckpoint("agent", Fixtures.simple("agent", 0));
            assertThat(raw.pttl(keys.bodies())).isPositive();
            lasting.saveCheckpoint("agent", Fixtures.simple("agent", 1));
            for (byte[] key : written(keys)) {
                assertThat(raw.pttl(key)).as(AgentKeys.describe(key)).isEqualTo(-1L);
            }
        }
    }

    /** An agent saved by an older build, extended with a TTL: every key expires together, its createdAt index too. */
    @Test
    void aSaveWithTtlExpiresTheFirstLayoutsKeysToo() {
        String uri = SharedRedis.uri();
        String prefix = SharedRedis.uniquePrefix();
        AgentKeys keys = new RedisKeys(prefix).agent("agent");
        var config = RedisStorageConfig.custom().uri(uri).keyPrefix(prefix).build();
        try (var expiring = RedisStorage.builder(config)
                        .settings(StorageSettings.custom()
                                .ttl(Duration.ofMinutes(5))
                                .build())
                        .build();
                var first = MixedLayoutBackend.provider(uri, prefix, version -> true)
                        .build();
                var raw = RedisClient.create(URI.create(uri))) {
            first.saveCheckpoint("agent", Fixtures.simple("agent", 0));
            assertThat(raw.pttl(keys.createdAt())).isEqualTo(-1L);
            expiring.saveCheckpoint("agent", Fixtures.simple("agent", 1));
            for (byte[] key : keys.all()) {
                assertThat(raw.pttl(key)).as(AgentKeys.describe(key)).isPositive();
            }
        }
    }

    /** The keys a save writes: all but the creation-time index of older builds. */
    private static List<byte[]> written(AgentKeys keys) {
        return List.of(keys.versions(), keys.bodies(), keys.attributes(), keys.ids());
    }
}
