package dev.agentpersistence.redis.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import redis.clients.jedis.AbstractTransaction;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * One Lua script from this package's resources, run with EVALSHA and sent in full (EVAL, which also caches it) only
 * when the server answers NOSCRIPT: after a restart, a flush, or on a cluster node that has not seen it yet.
 */
public final class RedisScript {
    private final String name;
    private final byte[] source;
    private final byte[] sha1;

    private RedisScript(String name, byte[] source) {
        this.name = name;
        this.source = source;
        this.sha1 = HexFormat.of().formatHex(sha1(source)).getBytes(StandardCharsets.US_ASCII);
    }

    /** Loads {@code <name>.lua} from this package. */
    public static RedisScript load(String name) {
        try (InputStream in = RedisScript.class.getResourceAsStream(name + ".lua")) {
            if (in == null) {
                throw new IllegalStateException("Missing script resource " + name + ".lua");
            }
            return new RedisScript(name, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read script " + name + ".lua", e);
        }
    }

    /** Runs the script; all {@code keys} must share one hash slot in cluster mode. */
    public Object run(UnifiedJedis client, List<byte[]> keys, List<byte[]> args) {
        try {
            return client.evalsha(sha1, keys, args);
        } catch (JedisNoScriptException e) {
            return client.eval(source, keys, args);
        }
    }

    /**
     * Queues the script in {@code transaction}: by its SHA-1, or in full when {@code inFull} (after a {@link #missing}
     * reply). Inside a MULTI a missing script does not abort the other commands, so callers must queue commands that
     * stay correct when it does not run.
     */
    public Response<Object> queue(
            AbstractTransaction transaction, List<byte[]> keys, List<byte[]> args, boolean inFull) {
        return inFull ? transaction.eval(source, keys, args) : transaction.evalsha(sha1, keys, args);
    }

    /** Whether {@code e}, a queued script's error, says the server does not have the script. */
    public static boolean missing(JedisDataException e) {
        return e instanceof JedisNoScriptException
                || (e.getMessage() != null && e.getMessage().startsWith("NOSCRIPT"));
    }

    /** The script's name, for messages. */
    public String name() {
        return name;
    }

    private static byte[] sha1(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-1").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is not available", e);
        }
    }
}
