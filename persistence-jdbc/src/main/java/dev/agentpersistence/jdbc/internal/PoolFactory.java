package dev.agentpersistence.jdbc.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Creates the HikariCP pool of a provider that owns its connections. */
final class PoolFactory {
    private static final long MIN_VALIDATION_MILLIS = 250;
    private static final Pattern USER_INFO =
            Pattern.compile("(jdbc:[A-Za-z0-9]+://)([^:/@?]*):([^/]*)@([^@/]*(?:/.*)?)");

    private PoolFactory() {}

    /**
     * A pool that starts without connecting (so a provider can be created while the database is down), waits at most
     * the configured connection timeout for a connection, and replaces broken connections on the next borrow.
     */
    static HikariDataSource create(JdbcStorageConfig config, Dialect dialect, boolean readOnly) {
        var pool = new HikariConfig();
        // Credentials written as jdbc:x://user:password@host are handed over as properties: drivers
        // do not parse them there and would quote the password in their error messages. The password
        // runs to the last @ before the path, so it may hold an unencoded @.
        Matcher userInfo = USER_INFO.matcher(config.url());
        if (userInfo.matches()) {
            pool.setJdbcUrl(userInfo.group(1) + userInfo.group(4));
            pool.setUsername(decode(userInfo.group(2)));
            pool.setPassword(decode(userInfo.group(3)));
        } else {
            pool.setJdbcUrl(config.url());
        }
        config.user().ifPresent(pool::setUsername);
        config.password().ifPresent(pool::setPassword);
        pool.setMaximumPoolSize(config.poolSize());
        pool.setMinimumIdle(Math.min(2, config.poolSize()));
        long timeout = config.connectionTimeout().toMillis();
        pool.setConnectionTimeout(timeout);
        pool.setValidationTimeout(Math.max(MIN_VALIDATION_MILLIS, timeout / 2));
        pool.setInitializationFailTimeout(-1);
        pool.setAutoCommit(true);
        pool.setPoolName("agent-persistence-" + config.tablePrefix());
        if (readOnly) {
            dialect.configureReadOnlyPool(pool, config);
        } else {
            dialect.configurePool(pool, config);
        }
        return new HikariDataSource(pool);
    }

    /** Percent-decoded, or as written when it is not valid percent-encoding (the decoder's message would quote it). */
    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notEncoded) {
            return text;
        }
    }
}
