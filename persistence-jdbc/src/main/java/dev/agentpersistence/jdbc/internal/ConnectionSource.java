package dev.agentpersistence.jdbc.internal;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * Where connections come from: the pool the provider owns, or the application's data source. A connection that cannot
 * be obtained fails as {@link SqlFailure#connecting} and a failed statement as {@link SqlFailure#statement}, so both
 * are classified like every other failure.
 */
final class ConnectionSource {
    private final DataSource dataSource;
    private final HikariDataSource ownedPool;
    private final SessionSetup sessionSetup = new SessionSetup();

    /** Over {@code dataSource}; {@code ownedPool} is the same pool when the provider created it, else {@code null}. */
    ConnectionSource(DataSource dataSource, HikariDataSource ownedPool) {
        this.dataSource = dataSource;
        this.ownedPool = ownedPool;
    }

    /** Whether the connections come from a pool the provider created. */
    boolean ownsPool() {
        return ownedPool != null;
    }

    /** The session statements run on each connection of an application's data source. */
    SessionSetup sessionSetup() {
        return sessionSetup;
    }

    /** Runs {@code work} on a connection whose session is set up, closed (returned to its pool) afterwards. */
    <T> T withConnection(ConnectionCall<T> work) {
        Connection connection;
        try {
            connection = dataSource.getConnection();
        } catch (SQLException e) {
            throw SqlFailure.connecting(e);
        }
        try (connection) {
            sessionSetup.apply(connection);
            return work.call(connection);
        } catch (SQLException e) {
            throw SqlFailure.statement(e);
        }
    }

    /**
     * Opens and closes one connection of the owned pool's settings straight through the driver, outside the pool, so
     * that an answer the pool would keep retrying until its timeout (credentials refused, no such database) comes back
     * at once; does nothing for an application's data source. Fails as {@link SqlFailure#connecting}.
     */
    void probe() {
        if (ownedPool == null) {
            return;
        }
        String url = ownedPool.getJdbcUrl();
        var properties = new Properties();
        properties.putAll(ownedPool.getDataSourceProperties());
        if (ownedPool.getUsername() != null) {
            properties.setProperty("user", ownedPool.getUsername());
        }
        if (ownedPool.getPassword() != null) {
            properties.setProperty("password", ownedPool.getPassword());
        }
        try {
            Driver driver = DriverManager.getDriver(url);
            try (Connection connection = driver.connect(url, properties)) {
                if (connection == null) {
                    throw new SQLException("the driver " + driver.getClass().getName() + " refused the URL", "08001");
                }
            }
        } catch (SQLException e) {
            throw SqlFailure.connecting(e);
        }
    }

    /** Closes the owned pool, if any. */
    void close() {
        if (ownedPool != null) {
            ownedPool.close();
        }
    }
}
