package dev.agentpersistence.jdbc.internal;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.jdbi.v3.core.ConnectionException;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * Where connections come from: the pool the provider owns, or the application's {@code Jdbi}. A connection that cannot
 * be obtained fails as JDBI's {@link ConnectionException} and a failed statement as its
 * {@link UnableToExecuteStatementException}, so both are classified like every other failure.
 */
final class ConnectionSource {
    private final Jdbi jdbi;
    private final HikariDataSource ownedPool;
    private final SessionSetup sessionSetup = new SessionSetup();

    /** Over {@code jdbi}; {@code ownedPool} is the pool behind it when the provider created it, else {@code null}. */
    ConnectionSource(Jdbi jdbi, HikariDataSource ownedPool) {
        this.jdbi = jdbi;
        this.ownedPool = ownedPool;
    }

    /** Whether the connections come from a pool the provider created. */
    boolean ownsPool() {
        return ownedPool != null;
    }

    /** The application's {@code Jdbi} or one over the owned pool. */
    Jdbi jdbi() {
        return jdbi;
    }

    /** The session statements run on each connection of an application's data source. */
    SessionSetup sessionSetup() {
        return sessionSetup;
    }

    /** Runs {@code work} on a JDBI handle whose session is set up. */
    <T> T withHandle(HandleCallback<T, RuntimeException> work) {
        return jdbi.withHandle(handle -> {
            sessionSetup.apply(handle);
            return work.withHandle(handle);
        });
    }

    /**
     * Runs {@code work} on a connection of the owned pool (no JDBI handle around it), or on the connection of a handle
     * of the application's {@code Jdbi}.
     */
    <T> T withConnection(ConnectionCall<T> work) {
        if (ownedPool == null) {
            return withHandle(handle -> {
                try {
                    return work.call(handle.getConnection());
                } catch (SQLException e) {
                    throw new UnableToExecuteStatementException(e, null);
                }
            });
        }
        Connection connection;
        try {
            connection = ownedPool.getConnection();
        } catch (SQLException e) {
            throw new ConnectionException(e);
        }
        try (connection) {
            return work.call(connection);
        } catch (SQLException e) {
            throw new UnableToExecuteStatementException(e, null);
        }
    }

    /**
     * Opens and closes one connection of the owned pool's settings straight through the driver, outside the pool, so
     * that an answer the pool would keep retrying until its timeout (credentials refused, no such database) comes back
     * at once; does nothing for an application's data source. Fails as JDBI's {@link ConnectionException}.
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
            throw new ConnectionException(e);
        }
    }

    /** Closes the owned pool, if any. */
    void close() {
        if (ownedPool != null) {
            ownedPool.close();
        }
    }
}
