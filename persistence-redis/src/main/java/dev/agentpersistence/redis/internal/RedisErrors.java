package dev.agentpersistence.redis.internal;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.StorageAuthenticationException;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.redaction.Redactor;
import java.util.function.Supplier;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisBusyException;
import redis.clients.jedis.exceptions.JedisClusterException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Turns Jedis exceptions into this library's: credentials the server refuses ({@code WRONGPASS}, {@code NOAUTH},
 * {@code NOPERM}, an {@code AUTH} the server does not expect) become {@link StorageAuthenticationException}, with the
 * server's reply first (a retry does not help); anything that says the server cannot serve now (connection refused or
 * lost, timeouts, pool exhausted, cluster down, loading, busy script, a failed TLS handshake, named as such) becomes
 * {@link StorageUnavailableException}; other error replies become {@link PersistenceException}. Messages name the
 * endpoint with its password hidden.
 */
public final class RedisErrors {
    private static final String[] REFUSED_CREDENTIALS_REPLIES = {
        "WRONGPASS", "NOAUTH", "NOPERM", "ERR AUTH ", "ERR invalid password", "ERR invalid username-password"
    };
    private static final String[] UNAVAILABLE_REPLIES = {
        "LOADING", "MASTERDOWN", "TRYAGAIN", "READONLY", "CLUSTERDOWN", "BUSY"
    };

    private final String endpoint;
    private final Redactor redactor;

    /**
     * Errors naming {@code endpoint}, which must already be redacted; {@code redactor} hides the credentials of the URI
     * in Jedis messages and in the chained Jedis exceptions.
     */
    public RedisErrors(String endpoint, Redactor redactor) {
        this.endpoint = endpoint;
        this.redactor = redactor;
    }

    /** The endpoint, password hidden. */
    public String endpoint() {
        return endpoint;
    }

    /** Runs {@code action}, turning a Redis failure into the provider's typed error for {@code operation}. */
    public <T> T run(String operation, Supplier<T> action) {
        try {
            return action.get();
        } catch (JedisException e) {
            throw translate(e, operation);
        }
    }

    /** The exception to throw for {@code e}, raised while doing {@code operation}. */
    public PersistenceException translate(JedisException e, String operation) {
        String message = redactor.redact(e.getMessage());
        Throwable cause = redactor.redact(e);
        var refused = refusedCredentials(e);
        if (refused != null) {
            return new StorageAuthenticationException(
                    redactor.redact(refused.getMessage()) + " (" + endpoint + ", " + operation
                            + "): the server refused the credentials; a retry does not help: fix the user and "
                            + "password of the URI",
                    cause);
        }
        var handshake = tlsHandshakeFailure(e);
        if (handshake != null) {
            return new StorageUnavailableException(
                    endpoint + " is unavailable (" + operation + "): " + redactor.redact(handshake.getMessage()),
                    cause);
        }
        if (unavailable(e)) {
            return new StorageUnavailableException(endpoint + " is unavailable (" + operation + "): " + message, cause);
        }
        return new PersistenceException(endpoint + " rejected " + operation + ": " + message, cause);
    }

    /** The error reply behind {@code e} that refuses the credentials, or {@code null}. */
    private static Throwable refusedCredentials(Throwable e) {
        for (Throwable t = e; t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof JedisDataException) {
                String message = t.getMessage() == null ? "" : t.getMessage();
                if (t instanceof JedisAccessControlException) {
                    return t;
                }
                for (String reply : REFUSED_CREDENTIALS_REPLIES) {
                    if (message.startsWith(reply)) {
                        return t;
                    }
                }
            }
        }
        return null;
    }

    /** The failed TLS handshake behind {@code e}, or {@code null}; its message says what to check. */
    private static Throwable tlsHandshakeFailure(Throwable e) {
        for (Throwable t = e; t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof TlsSocketFactory.TlsHandshakeException) {
                return t;
            }
        }
        return null;
    }

    private static boolean unavailable(JedisException e) {
        if (!(e instanceof JedisDataException)) {
            return true;
        }
        if (e instanceof JedisBusyException || e instanceof JedisClusterException) {
            return true;
        }
        String message = e.getMessage() == null ? "" : e.getMessage();
        for (String reply : UNAVAILABLE_REPLIES) {
            if (message.startsWith(reply)) {
                return true;
            }
        }
        return false;
    }
}
