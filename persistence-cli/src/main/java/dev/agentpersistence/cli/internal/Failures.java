package dev.agentpersistence.cli.internal;

import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.InvalidIdentifierException;
import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.ProviderNotFoundException;
import dev.agentpersistence.StorageConfigurationException;
import dev.agentpersistence.StorageNotFoundException;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.cli.CliException;
import dev.agentpersistence.cli.ExitCode;

/** What a failure means for the command line and the web inspector: its exit code and its one-line description. */
public final class Failures {
    private Failures() {}

    /** The {@link ExitCode} for a failure. */
    public static int exitCode(Throwable failure) {
        if (failure instanceof CliException cli) {
            return cli.exitCode();
        }
        if (failure instanceof StorageNotFoundException) {
            return ExitCode.NOT_FOUND;
        }
        if (failure instanceof StorageUnavailableException) {
            return ExitCode.UNAVAILABLE;
        }
        if (failure instanceof CheckpointConflictException) {
            return ExitCode.CONFLICT;
        }
        if (failure instanceof CorruptCheckpointException) {
            return ExitCode.UNREADABLE;
        }
        if (failure instanceof IllegalArgumentException
                || failure instanceof InvalidIdentifierException
                || failure instanceof ProviderNotFoundException
                || failure instanceof StorageConfigurationException) {
            return ExitCode.USAGE;
        }
        return ExitCode.FAILURE;
    }

    /** One line naming the failure (credentials not yet hidden: redact before printing). */
    public static String describe(Throwable failure) {
        String message = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        if (!(failure instanceof PersistenceException) && !(failure instanceof IllegalArgumentException)) {
            message = failure.getClass().getSimpleName() + ": " + message;
        }
        if (failure instanceof StorageUnavailableException
                && failure.getCause() != null
                && failure.getCause().getMessage() != null
                && !message.contains(failure.getCause().getMessage())) {
            message = message + ": " + failure.getCause().getMessage();
        }
        return message.strip().lines().findFirst().orElse("");
    }
}
