package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.PersistenceException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Repeats a database call after deadlocks and busy errors and, when it is idempotent, after a broken connection, a
 * bounded number of times; translates the final failure.
 */
final class Retrier {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcDatabase.class);
    private static final int MAX_TRANSIENT_ATTEMPTS = 8;
    private static final int MAX_RECONNECT_ATTEMPTS = 3;

    private final DatabaseIdentity identity;
    private final FailureTranslator translator;

    Retrier(DatabaseIdentity identity) {
        this.identity = identity;
        this.translator = new FailureTranslator(identity);
    }

    /** Runs {@code attempt} with the retry rules; {@code idempotent} allows a repeat after a broken connection. */
    <T> T run(String operation, boolean idempotent, Supplier<T> attempt) {
        for (int n = 1; ; n++) {
            try {
                return attempt.get();
            } catch (PersistenceException e) {
                throw e;
            } catch (RuntimeException e) {
                FailureKind kind = FailureKind.of(e, identity.dialect());
                boolean retry = (kind == FailureKind.TRANSIENT && n < MAX_TRANSIENT_ATTEMPTS)
                        || (kind == FailureKind.CONNECTION_LOST && idempotent && n < MAX_RECONNECT_ATTEMPTS);
                if (!retry) {
                    throw translator.translate(operation, e, kind, n);
                }
                LOG.debug(
                        "{} on {} failed ({}), attempt {}: {}",
                        operation,
                        identity.endpoint(),
                        kind,
                        n,
                        identity.redactor().redact(e.toString()));
                if (kind == FailureKind.TRANSIENT) {
                    RetryPause.pause(n);
                }
            }
        }
    }

    /** Runs an idempotent step without a result. */
    void run(String operation, Runnable step) {
        run(operation, true, () -> {
            step.run();
            return null;
        });
    }
}
