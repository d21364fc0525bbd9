package dev.agentpersistence.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.backend.StoredForm;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.tck.TestServices;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Redis as the main store and an S3 bucket (S3Proxy) as the blob store, configured by the one setting
 * {@code agent.persistence.blob-store}: a conversation with 20 copies of one 5 MB image reads back equal, the bucket
 * holds the image once, and Redis holds no media bytes.
 */
class RedisWithS3BlobStoreTest {
    private static final String REDIS_ENV = "AGENT_PERSISTENCE_TEST_REDIS_URI";
    private static final int IMAGE_SIZE = 5 << 20;

    @RegisterExtension
    static final S3ProxyExtension S3 = new S3ProxyExtension();

    private final String prefix = "agent-persistence-test:blobs-"
            + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36) + ":";
    private String redisUri;

    @AfterEach
    void removeKeys() {
        if (redisUri != null) {
            try (Jedis jedis = connect(redisUri)) {
                for (String key : keys(jedis)) {
                    jedis.del(key);
                }
            }
        }
    }

    @Test
    void redisHoldsNoMediaWhenTheBlobStoreIsS3() throws Exception {
        redisUri = TestServices.locate(
                "Redis", REDIS_ENV, "redis://127.0.0.1:6379", RedisWithS3BlobStoreTest::answers, Optional::empty);
        String bucket = S3.server().newBucket();
        URI endpoint = S3.server().endpoint();
        var config = ProviderConfig.of(Map.of(
                "agent.persistence.provider",
                "redis",
                "agent.persistence.redis.uri",
                redisUri,
                "agent.persistence.redis.key-prefix",
                prefix,
                "agent.persistence.blob-store",
                "s3://" + bucket + "/blobs",
                "agent.persistence.s3.endpoint",
                endpoint.toString(),
                "agent.persistence.s3.region",
                "us-east-1",
                "agent.persistence.s3.access-key-id",
                S3ProxyServer.ACCESS_KEY,
                "agent.persistence.s3.secret-access-key",
                S3ProxyServer.SECRET_KEY));
        byte[] image = new byte[IMAGE_SIZE];
        new Random(35).nextBytes(image);
        var saved = new ArrayList<AgentCheckpoint>();
        try (PersistenceStorageProvider<CheckpointFilter> provider = PersistenceStorageProviders.load(config)) {
            assertThat(provider.storedForm()
                            .flatMap(StoredForm::blobArea)
                            .orElseThrow()
                            .description())
                    .contains(bucket);
            var messages = new ArrayList<Message>();
            for (int copy = 0; copy < 20; copy++) {
                messages.add(new Message(
                        "q" + copy,
                        Message.Role.USER,
                        "and this one?",
                        List.of(ContentPart.bytes(ContentPart.MediaKind.IMAGE, image, "image/png")),
                        null,
                        Map.of()));
                messages.add(Message.assistant("the same picture").withId("a" + copy));
                var checkpoint = AgentCheckpoint.builder()
                        .checkpointId("cp-" + copy)
                        .agentId(copy % 2 == 0 ? "viewer" : "viewer-" + copy)
                        .version(copy % 2 == 0 ? copy / 2 : 0)
                        .createdAt(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(copy))
                        .messageHistory(List.copyOf(messages))
                        .build();
                provider.saveCheckpoint(checkpoint.agentId(), checkpoint);
                saved.add(checkpoint);
            }
        }
        String blobId = "blob-"
                + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(image));
        try (PersistenceStorageProvider<CheckpointFilter> reader = PersistenceStorageProviders.load(config)) {
            for (AgentCheckpoint checkpoint : saved) {
                assertThat(reader.getCheckpoint(checkpoint.agentId(), checkpoint.checkpointId()))
                        .contains(checkpoint);
            }
            var area = reader.storedForm().flatMap(StoredForm::blobArea).orElseThrow();
            assertThat(area.segments().listSegments(area.agentId()))
                    .extracting(SegmentInfo::segmentId)
                    .containsExactly(blobId);
        }

        List<S3Object> objects =
                S3.server().admin().listObjectsV2(b -> b.bucket(bucket)).contents();
        assertThat(objects.stream().filter(o -> o.size() > (1 << 20))).hasSize(1);
        long bucketBytes = objects.stream().mapToLong(S3Object::size).sum();
        assertThat(bucketBytes).isBetween((long) IMAGE_SIZE, IMAGE_SIZE + (64L << 10));

        try (Jedis jedis = connect(redisUri)) {
            List<String> keys = keys(jedis);
            assertThat(keys).isNotEmpty();
            long memory = 0;
            byte[] sample = Arrays.copyOfRange(image, IMAGE_SIZE / 2, IMAGE_SIZE / 2 + 64);
            for (String key : keys) {
                Long usage = jedis.memoryUsage(key);
                memory += usage == null ? 0 : usage;
                assertThat(contains(value(jedis, key), sample))
                        .as("key %s holds image bytes", key)
                        .isFalse();
            }
            assertThat(memory).as("bytes Redis holds for 20 copies").isLessThan(IMAGE_SIZE / 20);
        }
    }

    private List<String> keys(Jedis jedis) {
        var keys = new ArrayList<String>();
        String cursor = ScanParams.SCAN_POINTER_START;
        var params = new ScanParams().match(prefix + "*").count(1000);
        do {
            var page = jedis.scan(cursor, params);
            keys.addAll(page.getResult());
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        return keys;
    }

    /** Every byte a key holds (string, hash fields and values, sorted set members). */
    private static byte[] value(Jedis jedis, String key) {
        var out = new java.io.ByteArrayOutputStream();
        byte[] name = key.getBytes(StandardCharsets.UTF_8);
        switch (jedis.type(key)) {
            case "string" -> out.writeBytes(jedis.get(name));
            case "hash" ->
                jedis.hgetAll(name).forEach((field, value) -> {
                    out.writeBytes(field);
                    out.writeBytes(value);
                });
            case "zset" -> jedis.zrange(name, 0, -1).forEach(out::writeBytes);
            case "set" -> jedis.smembers(name).forEach(out::writeBytes);
            case "list" -> jedis.lrange(name, 0, -1).forEach(out::writeBytes);
            default -> {}
        }
        return out.toByteArray();
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static boolean answers(String uri) {
        try (Jedis jedis = connect(uri)) {
            return "PONG".equals(jedis.ping());
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static Jedis connect(String uri) {
        URI parsed = URI.create(uri);
        return new Jedis(
                new HostAndPort(parsed.getHost(), parsed.getPort() < 0 ? 6379 : parsed.getPort()),
                DefaultJedisClientConfig.builder()
                        .connectionTimeoutMillis(1000)
                        .socketTimeoutMillis(10_000)
                        .build());
    }
}
