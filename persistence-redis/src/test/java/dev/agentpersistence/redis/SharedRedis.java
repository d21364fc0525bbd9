package dev.agentpersistence.redis;

import dev.agentpersistence.tck.TestServices;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * The shared Redis server the standalone tests use: {@value #ENV}, else {@value #LOCAL_DEFAULT}, else a Redis container
 * when Docker works; skipped (or failed when services are required) otherwise. Tests write under a key prefix unique to
 * the run and remove it afterwards.
 */
final class SharedRedis {
    static final String ENV = "AGENT_PERSISTENCE_TEST_REDIS_URI";
    static final String LOCAL_DEFAULT = "redis://127.0.0.1:6379";

    /** The key prefix of this test run: {@code agent-persistence-test:<random>:}. */
    static final String RUN_PREFIX = "agent-persistence-test:"
            + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36) + ":";

    private SharedRedis() {}

    /** The URI of a reachable Redis server. */
    static String uri() {
        return TestServices.locate("Redis", ENV, LOCAL_DEFAULT, SharedRedis::answers, SharedRedis::container);
    }

    /** A prefix under {@link #RUN_PREFIX} unique to one test. */
    static String uniquePrefix() {
        return RUN_PREFIX + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36) + ":";
    }

    /** Whether a Redis server answers PING at {@code uri} within a second. */
    static boolean answers(String uri) {
        try (var jedis = connect(uri)) {
            return "PONG".equals(jedis.ping());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** A single connection to {@code uri}, for inspecting what the provider wrote. */
    static Jedis connect(String uri) {
        URI parsed = URI.create(uri);
        var config = DefaultJedisClientConfig.builder()
                .autoNegotiateProtocol(false)
                .connectionTimeoutMillis(1000)
                .socketTimeoutMillis(5000)
                .user(JedisURIHelper.getUser(parsed))
                .password(JedisURIHelper.getPassword(parsed))
                .database(JedisURIHelper.hasDbIndex(parsed) ? JedisURIHelper.getDBIndex(parsed) : 0)
                .sslOptions(JedisURIHelper.isRedisSSLScheme(parsed) ? redis.clients.jedis.SslOptions.defaults() : null)
                .build();
        return new Jedis(JedisURIHelper.getHostAndPort(parsed), config);
    }

    /** Every key starting with {@code prefix} with its value (strings, hashes, sets, sorted sets, lists), as bytes. */
    static byte[] dump(String uri, String prefix) {
        var out = new java.io.ByteArrayOutputStream();
        try (var jedis = connect(uri)) {
            String cursor = ScanParams.SCAN_POINTER_START;
            var params = new ScanParams().match(prefix + "*").count(1000);
            do {
                var page = jedis.scan(cursor.getBytes(StandardCharsets.UTF_8), params);
                for (byte[] key : page.getResult()) {
                    out.writeBytes(key);
                    switch (jedis.type(key)) {
                        case "string" -> out.writeBytes(jedis.get(key));
                        case "hash" ->
                            jedis.hgetAll(key).forEach((field, value) -> {
                                out.writeBytes(field);
                                out.writeBytes(value);
                            });
                        case "set" -> jedis.smembers(key).forEach(out::writeBytes);
                        case "zset" -> jedis.zrange(key, 0, -1).forEach(out::writeBytes);
                        case "list" -> jedis.lrange(key, 0, -1).forEach(out::writeBytes);
                        default ->
                            throw new IllegalStateException(
                                    "unexpected type of key " + new String(key, StandardCharsets.UTF_8));
                    }
                }
                cursor = page.getCursor();
            } while (!"0".equals(cursor));
        }
        return out.toByteArray();
    }

    /** Deletes every key starting with {@code prefix} (which holds no glob characters). */
    static void deleteKeys(String uri, String prefix) {
        try (var client = RedisClient.create(URI.create(uri))) {
            byte[] cursor = ScanParams.SCAN_POINTER_START_BINARY;
            var params = new ScanParams()
                    .match((prefix + "*").getBytes(StandardCharsets.UTF_8))
                    .count(1000);
            do {
                var page = client.scan(cursor, params);
                if (!page.getResult().isEmpty()) {
                    client.unlink(page.getResult().toArray(new byte[0][]));
                }
                cursor = page.getCursorAsBytes();
            } while (!"0".equals(new String(cursor, StandardCharsets.US_ASCII)));
        }
    }

    private static Optional<String> container() {
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            return Optional.empty();
        }
        return Optional.of(ContainerHolder.URI);
    }

    /** Starts one Redis container per test JVM on first use; Testcontainers removes it at exit. */
    private static final class ContainerHolder {
        @SuppressWarnings("resource")
        private static final GenericContainer<?> REDIS = new GenericContainer<>("redis:7.0").withExposedPorts(6379);

        static final String URI;

        static {
            REDIS.start();
            URI = "redis://" + REDIS.getHost() + ":" + REDIS.getMappedPort(6379);
        }

        private ContainerHolder() {}
    }
}
