package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.redaction.Redactor;

/**
 * Which database the provider talks to: its dialect (known from the URL, or detected on the first connection to an
 * application's data source) and its endpoint with credentials hidden.
 */
final class DatabaseIdentity {
    private final Redactor redactor;
    private volatile Dialect dialect;
    private volatile String endpoint;

    DatabaseIdentity(Dialect dialect, String endpoint, Redactor redactor) {
        this.dialect = dialect;
        this.redactor = redactor;
        this.endpoint = redactor.redact(endpoint);
    }

    /** The dialect, or {@code null} before it is detected. */
    Dialect dialect() {
        return dialect;
    }

    /** Whether the dialect is known. */
    boolean known() {
        return dialect != null;
    }

    /** Records the dialect detected on a connection whose URL is {@code url} (may be {@code null}). */
    void detected(Dialect detected, String url) {
        if (url != null) {
            endpoint = redactor.redact(url);
        }
        dialect = detected;
    }

    /** The database's URL (password hidden), or a description until it is known. */
    String endpoint() {
        return endpoint;
    }

    /** The dialect's name, or {@code "unknown"} before it is detected. */
    String dialectName() {
        Dialect d = dialect;
        return d == null ? "unknown" : d.name();
    }

    /** The dialect's name and the endpoint, for messages. */
    String where() {
        return dialectName() + " database " + endpoint;
    }

    /** Hides the URL's and the password setting's credentials. */
    Redactor redactor() {
        return redactor;
    }
}
