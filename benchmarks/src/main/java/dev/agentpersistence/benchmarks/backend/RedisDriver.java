package dev.agentpersistence.benchmarks.backend;

import dev.agentpersistence.benchmarks.raw.RawRedisStore;
import dev.agentpersistence.benchmarks.raw.RawStore;
import dev.agentpersistence.redis.RedisStorage;
import dev.agentpersistence.redis.RedisStorageConfig;
import dev.agentpersistence.storage.StorageShell;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The Redis provider under a key prefix of run and namespace. The raw baseline is Jedis {@code SET}/{@code GET} through
 * a {@link RedisClient} (pooled) client. Bytes stored: the sum of {@code MEMORY USAGE} over the namespace's keys.
 */
final class RedisDriver implements BackendDriver {

    @Override
    public StorageShell.Builder builder(BenchSettings settings, String namespace, boolean bulk, boolean incremental) {
        return RedisStorage.builder(RedisStorageConfig.custom()
                        .uri(settings.redisUri())
                        .keyPrefix(prefix(settings, namespace))
                        .build())
                .settings(BenchmarkedForm.settings(incremental));
    }

    @Override
    public int loadThreads() {
        return 4;
    }

    @Override
    public RawStore openRaw(BenchSettings settings, String namespace) {
        return new RawRedisStore(settings.redisUri(), prefix(settings, namespace) + "raw:");
    }

    @Override
    public long bytesStored(BenchSettings settings, String namespace) {
        try (var client = RedisClient.create(java.net.URI.create(settings.redisUri()))) {
            long total = 0;
            for (String key : keys(client, prefix(settings, namespace))) {
                Long usage = client.memoryUsage(key, 0);
                total += usage == null ? 0 : usage;
            }
            return total;
        }
    }

    @Override
    public Optional<String> unavailable(BenchSettings settings) {
        try (var client = RedisClient.create(java.net.URI.create(settings.redisUri()))) {
            client.ping();
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of("Redis does not answer: " + e.getMessage());
        }
    }

    @Override
    public void cleanUp(BenchSettings settings) {
        try (var client = RedisClient.create(java.net.URI.create(settings.redisUri()))) {
            List<String> keys = keys(client, settings.redisPrefix());
            for (int i = 0; i < keys.size(); i += 500) {
                client.unlink(keys.subList(i, Math.min(keys.size(), i + 500)).toArray(String[]::new));
            }
        }
    }

    private static List<String> keys(RedisClient client, String prefix) {
        var keys = new ArrayList<String>();
        var params = new ScanParams().match(prefix + "*").count(1000);
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            ScanResult<String> page = client.scan(cursor, params);
            keys.addAll(page.getResult());
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        return keys;
    }

    private static String prefix(BenchSettings settings, String namespace) {
        return settings.redisPrefix() + namespace + ":";
    }
}
