package dev.agentpersistence.cli;

import dev.agentpersistence.PersistenceException;

/**
 * A command that cannot do what was asked, with the {@link ExitCode} to end with and a message naming what was wrong
 * (printed as one line).
 */
public class CliException extends PersistenceException {
    private final int exitCode;

    /** A failure ending the command with {@code exitCode}. */
    public CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    /** A failure ending the command with {@code exitCode}, caused by {@code cause}. */
    public CliException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** The process exit code. */
    public int exitCode() {
        return exitCode;
    }

    /** An agent or checkpoint that does not exist. */
    public static CliException notFound(String message) {
        return new CliException(ExitCode.NOT_FOUND, message);
    }

    /** Bad input. */
    public static CliException usage(String message) {
        return new CliException(ExitCode.USAGE, message);
    }
}
