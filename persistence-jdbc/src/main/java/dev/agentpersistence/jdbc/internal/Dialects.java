package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.StorageConfigurationException;
import dev.agentpersistence.spi.ProviderConfig;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/** Chooses the {@link Dialect} for a JDBC URL or a database product name, and names the driver each needs. */
public final class Dialects {
    /** A supported database: its URL prefix, its name, the Maven artifact of its driver and its dialect. */
    private record Supported(
            String prefix,
            String name,
            String driverArtifact,
            String driverClass,
            String form,
            Supplier<Dialect> dialect) {}

    private static final List<Supported> ALL = List.of(
            new Supported(
                    "jdbc:sqlite:",
                    "SQLite",
                    "org.xerial:sqlite-jdbc",
                    "org.sqlite.JDBC",
                    "jdbc:sqlite:path",
                    SqliteDialect::new),
            new Supported(
                    "jdbc:postgresql:",
                    "PostgreSQL",
                    "org.postgresql:postgresql",
                    "org.postgresql.Driver",
                    "jdbc:postgresql://host[:port]/database[?property=value&...]",
                    PostgresDialect::new),
            new Supported(
                    "jdbc:mariadb:",
                    "MariaDB",
                    "org.mariadb.jdbc:mariadb-java-client",
                    "org.mariadb.jdbc.Driver",
                    "jdbc:mariadb://host[:port]/database[?property=value&...]",
                    MariaDbDialect::mariaDb),
            new Supported(
                    "jdbc:mysql:",
                    "MySQL",
                    "com.mysql:mysql-connector-j",
                    "com.mysql.cj.jdbc.Driver",
                    "jdbc:mysql://host[:port]/database[?property=value&...]",
                    MariaDbDialect::mySql),
            new Supported(
                    "jdbc:h2:",
                    "H2",
                    "com.h2database:h2",
                    "org.h2.Driver",
                    "jdbc:h2:file:path, jdbc:h2:mem:name or jdbc:h2:tcp://host[:port]/path",
                    H2Dialect::new));

    /** The URL prefixes understood, each with its database and driver artifact, for messages. */
    public static final String SUPPORTED = ALL.stream()
            .map(s -> s.prefix() + " (" + s.name() + ", " + s.driverArtifact() + ")")
            .collect(Collectors.joining(", "));

    private Dialects() {}

    /**
     * The dialect for {@code url}.
     *
     * @throws StorageConfigurationException naming the supported databases when the URL is not one of them
     */
    public static Dialect forUrl(String url) {
        return supported(url).dialect().get();
    }

    /**
     * Checks that a JDBC driver on the class path accepts {@code url}.
     *
     * @throws StorageConfigurationException saying where the URL is malformed when the database's driver is on the
     *     class path and refuses it, naming the Maven artifact to add when no driver is there, or the supported
     *     databases when the URL is not one of them
     */
    public static void requireDriver(String url) {
        var database = supported(url);
        try {
            DriverManager.getDriver(url);
        } catch (SQLException e) {
            if (loadable(database.driverClass())) {
                throw new StorageConfigurationException(
                        "Malformed JDBC URL '" + ProviderConfig.redact(url) + "': "
                                + JdbcUrlProblem.find(url)
                                        .orElse("the " + database.name() + " driver does not accept it")
                                + "; the " + database.name() + " driver (" + database.driverClass()
                                + ") is on the class path and expects " + database.form(),
                        e);
            }
            throw new StorageConfigurationException(
                    "No JDBC driver on the class path accepts '" + ProviderConfig.redact(url)
                            + "' (" + database.name() + "): add the Maven artifact " + database.driverArtifact()
                            + " to the application's dependencies",
                    e);
        }
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
        throw new PersistenceException(
                "Unsupported database '" + product + "': the JDBC storage provider supports " + SUPPORTED);
    }

    /** Whether the driver class can be loaded (it is on the class path, whether or not it accepted the URL). */
    private static boolean loadable(String driverClass) {
        for (ClassLoader loader :
                new ClassLoader[] {Thread.currentThread().getContextClassLoader(), Dialects.class.getClassLoader()}) {
            try {
                Class.forName(driverClass, false, loader);
                return true;
            } catch (ClassNotFoundException | LinkageError | RuntimeException e) {
                // not from this loader
            }
        }
        return false;
    }

    private static Supported supported(String url) {
        Objects.requireNonNull(url, "url");
        String lower = url.toLowerCase(Locale.ROOT);
        Optional<Supported> found =
                ALL.stream().filter(s -> lower.startsWith(s.prefix())).findFirst();
        return found.orElseThrow(() -> new StorageConfigurationException("Unsupported JDBC URL '"
                + ProviderConfig.redact(url) + "': the JDBC storage provider supports " + SUPPORTED));
    }
}
