package dev.agentpersistence.benchmarks.raw;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import redis.clients.jedis.RedisClient;

/** Jedis {@code SET} and {@code GET} of byte values through a pooled client, as applications use it. */
public final class RawRedisStore implements RawStore {
    private final RedisClient client;
    private final String prefix;

    public RawRedisStore(String uri, String prefix) {
        this.client = RedisClient.create(URI.create(uri));
        this.prefix = prefix;
    }

    @Override
    public void write(String key, byte[] value) {
        client.set(key(key), value);
    }

    @Override
    public byte[] read(String key) {
        byte[] value = client.get(key(key));
        if (value == null) {
            throw new IllegalStateException("No key " + prefix + key);
        }
        return value;
    }

    @Override
    public void delete(List<String> keys) {
        for (int i = 0; i < keys.size(); i += 500) {
            client.unlink(keys.subList(i, Math.min(keys.size(), i + 500)).stream()
                    .map(this::key)
                    .toArray(byte[][]::new));
        }
    }

    @Override
    public void close() {
        client.close();
    }

    private byte[] key(String key) {
        return (prefix + key).getBytes(StandardCharsets.UTF_8);
    }
}
