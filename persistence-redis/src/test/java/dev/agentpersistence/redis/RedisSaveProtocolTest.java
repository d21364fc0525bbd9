package dev.agentpersistence.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.redis.internal.IndexValues;
import dev.agentpersistence.storage.StorageShell;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * The save and read protocol around large bodies (written with a plain HSETNX beside the save script, read with a plain
 * HGET after the query script), and data written by the earlier protocol, where every body went through the script: its
 * keys, created here command by command as that script did, read and extend unchanged.
 */
class RedisSaveProtocolTest {
    private static final String AGENT = "agent";
    private static final String LARGE = text(40_000);

    @AfterAll
    static void removeKeys() {
        if (SharedRedis.answers(SharedRedis.uri())) {
            SharedRedis.deleteKeys(SharedRedis.uri(), SharedRedis.RUN_PREFIX);
        }
    }

    @Test
    void keysOfTheEarlierSaveScriptReadAndTakeNewSaves() {
        String scratch = SharedRedis.uniquePrefix();
        String prefix = SharedRedis.uniquePrefix();
        var earlier = List.of(checkpoint(0, "small"), checkpoint(1, LARGE), checkpoint(2, "small again"));
        try (var source = provider(scratch);
                var jedis = SharedRedis.connect(SharedRedis.uri())) {
            // the stored documents, then the keys exactly as the earlier save.lua wrote them
            earlier.forEach(checkpoint -> source.saveCheckpoint(AGENT, checkpoint));
            String from = scratch + tag() + ":";
            String to = prefix + tag() + ":";
            for (AgentCheckpoint checkpoint : earlier) {
                byte[] version = bytes(IndexValues.version(checkpoint.version()));
                byte[] body = jedis.hget(bytes(from + "b"), version);
                jedis.zadd(bytes(to + "v"), 0, version);
                double score = Double.parseDouble(FirstLayoutWriter.instantScore(checkpoint.createdAt()));
                jedis.zadd(bytes(to + "c"), score, version);
                jedis.hset(bytes(to + "b"), version, body);
                jedis.hset(
                        bytes(to + "m"),
                        version,
                        bytes("{\"i\":\"" + checkpoint.checkpointId() + "\",\"c\":\""
                                + IndexValues.instantKey(checkpoint.createdAt()) + "\",\"n\":\"n\",\"m\":{}}"));
                jedis.hset(bytes(to + "i"), bytes(checkpoint.checkpointId()), version);
            }
            jedis.sadd(prefix + "agents", AGENT);
        }
        try (var provider = provider(prefix)) {
            assertThat(provider.getLatestCheckpoint(AGENT)).contains(earlier.get(2));
            assertThat(provider.getCheckpoint(AGENT, "cp-1")).contains(earlier.get(1));
            assertThat(provider.getCheckpoints(AGENT)).containsExactlyElementsOf(earlier);
            assertThat(provider.getCheckpoints(
                            AGENT,
                            CheckpointFilter.builder()
                                    .createdAfter(earlier.get(1).createdAt())
                                    .nodeId("n")
                                    .build()))
                    .containsExactly(earlier.get(1), earlier.get(2));
            assertThat(provider.listAgents()).containsExactly(AGENT);

            provider.saveCheckpoint(AGENT, earlier.get(1)); // identical: no-op
            assertThatThrownBy(() -> provider.saveCheckpoint(AGENT, checkpoint(1, LARGE + "!")))
                    .isInstanceOf(CheckpointConflictException.class);
            var next = checkpoint(3, LARGE + "?");
            provider.saveCheckpoint(AGENT, next);
            assertThat(provider.getLatestCheckpoint(AGENT)).contains(next);
            assertThat(provider.deleteCheckpointsBefore(AGENT, 2)).isEqualTo(2);
            assertThat(provider.getCheckpoints(AGENT)).containsExactly(earlier.get(2), next);
        }
    }

    @Test
    void aConflictingLargeSaveLeavesNothingBehind() {
        String prefix = SharedRedis.uniquePrefix();
        try (var provider = provider(prefix);
                var jedis = SharedRedis.connect(SharedRedis.uri())) {
            var stored = checkpoint(0, LARGE);
            provider.saveCheckpoint(AGENT, stored);
            var sameId = AgentCheckpoint.builder()
                    .checkpointId("cp-0")
                    .agentId(AGENT)
                    .version(1)
                    .createdAt(stored.createdAt())
                    .nodeId("n")
                    .message(Message.user(LARGE + "!").withId("m-1"))
                    .build();
            assertThatThrownBy(() -> provider.saveCheckpoint(AGENT, sameId))
                    .isInstanceOf(CheckpointConflictException.class);
            assertThatThrownBy(() -> provider.saveCheckpoint(AGENT, checkpoint(0, LARGE + "!")))
                    .isInstanceOf(CheckpointConflictException.class);

            String keys = prefix + tag() + ":";
            assertThat(jedis.hkeys(keys + "b")).containsExactly(IndexValues.version(0));
            assertThat(jedis.hkeys(keys + "m")).containsExactly(IndexValues.version(0));
            assertThat(provider.getCheckpoints(AGENT)).containsExactly(stored);
        }
    }

    /** What a staged save leaves when the server had lost its scripts: a body without its version. */
    @Test
    void aBodyLeftWithoutItsVersionGivesWayToTheNextSave() {
        String prefix = SharedRedis.uniquePrefix();
        try (var provider = provider(prefix);
                var jedis = SharedRedis.connect(SharedRedis.uri())) {
            String keys = prefix + tag() + ":";
            jedis.hset(keys + "b", IndexValues.version(0), "left over");
            for (String text : List.of("small", LARGE)) {
                var checkpoint = checkpoint(0, text);
                provider.saveCheckpoint(AGENT, checkpoint);
                assertThat(provider.getCheckpoint(AGENT, "cp-0")).contains(checkpoint);
                provider.deleteCheckpoints(AGENT);
                jedis.hset(keys + "b", IndexValues.version(0), "left over");
            }
        }
    }

    /** On a private server (never the shared one): its scripts are flushed between saves. */
    @Test
    void aServerThatLostItsScriptsTakesLargeSavesAndStillRefusesConflicts(@TempDir Path dir) {
        try (var server = RedisServerProcess.start("Redis (private server of the save protocol test)", dir, List.of());
                var jedis = new Jedis("127.0.0.1", server.port())) {
            var config = RedisStorageConfig.custom()
                    .uri("redis://127.0.0.1:" + server.port())
                    .keyPrefix("p:")
                    .build();
            try (var provider = RedisStorage.builder(config).build()) {
                var first = checkpoint(0, LARGE);
                provider.saveCheckpoint(AGENT, first);
                jedis.scriptFlush();
                var second = checkpoint(1, LARGE + "?");
                provider.saveCheckpoint(AGENT, second);
                jedis.scriptFlush();
                assertThatThrownBy(() -> provider.saveCheckpoint(AGENT, checkpoint(1, LARGE + "!")))
                        .isInstanceOf(CheckpointConflictException.class);
                jedis.scriptFlush();
                var sameId = AgentCheckpoint.builder()
                        .checkpointId("cp-0")
                        .agentId(AGENT)
                        .version(2)
                        .createdAt(first.createdAt())
                        .message(Message.user(LARGE).withId("m-2"))
                        .build();
                assertThatThrownBy(() -> provider.saveCheckpoint(AGENT, sameId))
                        .isInstanceOf(CheckpointConflictException.class);

                assertThat(jedis.hkeys("p:" + tag() + ":b"))
                        .containsExactlyInAnyOrder(IndexValues.version(0), IndexValues.version(1));
                jedis.scriptFlush();
                assertThat(provider.getCheckpoints(AGENT)).containsExactly(first, second);
            }
        }
    }

    private static StorageShell provider(String prefix) {
        return RedisStorage.builder(RedisStorageConfig.custom()
                        .uri(SharedRedis.uri())
                        .keyPrefix(prefix)
                        .build())
                .build();
    }

    private static AgentCheckpoint checkpoint(long version, String text) {
        return AgentCheckpoint.builder()
                .checkpointId("cp-" + version)
                .agentId(AGENT)
                .version(version)
                .createdAt(Instant.parse("2026-11-24T00:00:00Z").plusSeconds(version))
                .nodeId("n")
                .message(Message.user(text).withId("m-" + version))
                .build();
    }

    /** Hardly compressible text of {@code length} characters, stored larger than every inline limit. */
    private static String text(int length) {
        var random = new Random(11);
        var text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append((char) ('!' + random.nextInt(90)));
        }
        return text.toString();
    }

    private static String tag() {
        return "{" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes(AGENT)) + "}";
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
