package dev.agentpersistence.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.redis.internal.RedisKeys;
import dev.agentpersistence.redis.internal.SegmentKeys;
import dev.agentpersistence.storage.StorageSettings;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/** With a TTL, history segments expire together with the checkpoints that need them. */
class RedisSegmentTtlTest {
    private static final Duration TTL = Duration.ofMillis(3000);

    @AfterAll
    static void removeKeys() {
        if (SharedRedis.answers(SharedRedis.uri())) {
            SharedRedis.deleteKeys(SharedRedis.uri(), SharedRedis.RUN_PREFIX);
        }
    }

    private static AgentCheckpoint checkpoint(long version, List<Message> history) {
        return Fixtures.builder("agent", version).messageHistory(history).build();
    }

    @Test
    void segmentKeysExpireWithTheAgentAndEverySaveRefreshesThem() {
        String uri = SharedRedis.uri();
        String prefix = SharedRedis.uniquePrefix();
        var config = RedisStorageConfig.custom().uri(uri).keyPrefix(prefix).build();
        SegmentKeys segments = new RedisKeys(prefix).segments("agent");
        byte[] versions = new RedisKeys(prefix).agent("agent").versions();
        try (var provider = RedisStorage.builder(config)
                        .settings(StorageSettings.custom().ttl(TTL).build())
                        .build();
                var raw = RedisClient.create(URI.create(uri))) {
            var history = new ArrayList<Message>();
            for (int i = 0; i < 40; i++) {
                history.add(Message.user("message " + i));
            }
            provider.saveCheckpoint("agent", checkpoint(0, history));
            assertThat(raw.hlen(segments.contents())).isEqualTo(1);
            assertThat(raw.pttl(segments.contents())).isBetween(1L, TTL.toMillis());
            assertThat(raw.pttl(segments.times())).isBetween(1L, TTL.toMillis());

            RedisServerProcess.sleep(1500);
            long left = raw.pttl(segments.contents());
            provider.saveCheckpoint("agent", checkpoint(1, history)); // no new message: no new log entry
            assertThat(raw.hlen(segments.contents()))
                    .as("the save reused the log entry")
                    .isEqualTo(1);
            assertThat(raw.pttl(segments.contents()))
                    .as("refreshed by the checkpoint save")
                    .isGreaterThan(left);
            assertThat(raw.pttl(segments.times())).isGreaterThan(left);
            assertThat(provider.getLatestCheckpoint("agent")).contains(checkpoint(1, history));
            assertThat(provider.storedForm().orElseThrow().listSegmentAgents()).containsExactly("agent");

            long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while ((raw.exists(versions) || raw.exists(segments.contents())) && System.nanoTime() < deadline) {
                RedisServerProcess.sleep(100);
            }
            assertThat(raw.exists(segments.contents())).isFalse();
            assertThat(raw.exists(segments.times())).isFalse();
            assertThat(provider.getCheckpoints("agent")).isEmpty();
            assertThat(provider.storedForm().orElseThrow().listSegmentAgents())
                    .as("stale entry dropped")
                    .isEmpty();
        }
    }
}
