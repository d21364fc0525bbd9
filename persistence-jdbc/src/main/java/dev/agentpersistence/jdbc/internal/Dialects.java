package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.spi.ProviderConfig;
import java.util.Locale;
import java.util.Objects;

/** Chooses the {@link Dialect} for a JDBC URL or a database product name. */
public final class Dialects {
    /** The URL prefixes understood, for messages. */
    public static final String SUPPORTED =
            "jdbc:sqlite: (SQLite), jdbc:postgresql: (PostgreSQL), jdbc:mariadb: (MariaDB), jdbc:mysql: (MySQL), jdbc:h2: (H2)";

    private Dialects() {
    }

    /**
     * The dialect for {@code url}.
     *
     * @throws PersistenceException naming the supported databases when the URL is not one of them
     */
    public static Dialect forUrl(String url) {
        Objects.requireNonNull(url, "url");
        String lower = url.toLowerCase(Locale.ROOT);
        if (lower.startsWith("jdbc:sqlite:")) {
            return new SqliteDialect();
        }
        if (lower.startsWith("jdbc:postgresql:")) {
            return new PostgresDialect();
        }
        if (lower.startsWith("jdbc:mariadb:")) {
            return MariaDbDialect.mariaDb();
        }
        if (lower.startsWith("jdbc:mysql:")) {
            return MariaDbDialect.mySql();
        }
        if (lower.startsWith("jdbc:h2:")) {
            return new H2Dialect();
        }
        throw new PersistenceException("Unsupported JDBC URL '" + ProviderConfig.redact(url)
                + "': the JDBC storage provider supports " + SUPPORTED);
    }

    /**
     * The dialect for a connection whose URL is {@code url} (may be {@code null}) and whose
     * {@code DatabaseMetaData.getDatabaseProductName()} is {@code product}.
     */
    public static Dialect forConnection(String url, String product) {
        String name = product == null ? "" : product.toLowerCase(Locale.ROOT);
        if (name.contains("mariadb")) {
            return MariaDbDialect.mariaDb();
        }
        if (name.contains("mysql")) {
            return MariaDbDialect.mySql();
        }
        if (name.contains("postgresql")) {
            return new PostgresDialect();
        }
        if (name.contains("sqlite")) {
            return new SqliteDialect();
        }
        if (name.equals("h2")) {
            return new H2Dialect();
        }
        if (url != null) {
            return forUrl(url);
        }
        throw new PersistenceException("Unsupported database '" + product + "': the JDBC storage provider supports "
                + SUPPORTED);
    }
}
