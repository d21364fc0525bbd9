package dev.agentpersistence.spi;

import java.io.PrintStream;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.ILoggerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLoggerFactory;

/**
 * Tells that discovery fell back to {@link NoPersistenceStorageProvider} because no provider is on the class path: one
 * WARN line through SLF4J every time, and, when SLF4J has no binding (its factory is the no-operation one, so the WARN
 * goes nowhere), one line on standard error the first time. An explicit {@code agent.persistence.provider=none} is a
 * choice and is never announced.
 *
 * <p>{@link #DEFAULT} is the one instance discovery uses; its "already printed" flag is therefore kept once per class
 * loader that loads this class (normally once per JVM). That flag is the only static mutable state; other instances,
 * made for tests, have their own.
 */
final class NoProviderNotice {
    /** The line printed on standard error. */
    static final String STANDARD_ERROR_LINE = "agent-persistence: no storage provider found on the class path and no"
            + " SLF4J binding to log it: checkpoints are NOT stored. Add a storage module (e.g. persistence-jdbc),"
            + " or set " + ProviderConfig.PROVIDER + "=none to run without storage on purpose.";

    /** Used by discovery; prints at most once per class loader of this class. */
    static final NoProviderNotice DEFAULT = new NoProviderNotice(() -> System.err, LoggerFactory::getILoggerFactory);

    private final Supplier<PrintStream> standardError;
    private final Supplier<ILoggerFactory> loggerFactory;
    private final AtomicBoolean printed = new AtomicBoolean();

    /**
     * @param standardError where the line goes, read when it is printed
     * @param loggerFactory SLF4J's factory, to tell whether a binding is present
     */
    NoProviderNotice(Supplier<PrintStream> standardError, Supplier<ILoggerFactory> loggerFactory) {
        this.standardError = Objects.requireNonNull(standardError, "standardError");
        this.loggerFactory = Objects.requireNonNull(loggerFactory, "loggerFactory");
    }

    /** Announces that the no-operation provider was chosen because none was found. */
    void noProviderFound() {
        log().warn(
                        "No agent-persistence storage provider found on the class path; checkpoints will not be stored."
                                + " Add a module such as persistence-jdbc or set {}.",
                        ProviderConfig.PROVIDER);
        if (loggerFactory.get() instanceof NOPLoggerFactory && printed.compareAndSet(false, true)) {
            standardError.get().println(STANDARD_ERROR_LINE);
        }
    }

    /** Looked up when a line is logged: binding SLF4J takes a fresh JVM tens of milliseconds; most runs log nothing. */
    private static Logger log() {
        return LoggerFactory.getLogger(PersistenceStorageProviders.class);
    }
}
