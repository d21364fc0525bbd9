package dev.agentpersistence.cli;

/** The exit codes of every command, documented in the module README. Scripts can rely on them. */
public final class ExitCode {
    /** The command did what was asked. */
    public static final int OK = 0;
    /** The command ran and found a problem: corrupt checkpoints ({@code verify}), a copy that does not match. */
    public static final int PROBLEMS_FOUND = 1;
    /** Bad input: an unknown option or command, a malformed store URI or setting, an invalid id. */
    public static final int USAGE = 2;
    /** The store cannot be reached (server down, wrong host, refused credentials). */
    public static final int UNAVAILABLE = 3;
    /** The agent or checkpoint asked for does not exist. */
    public static final int NOT_FOUND = 4;
    /** Stored data cannot be read: corrupt, or encrypted with a key that is not configured. */
    public static final int UNREADABLE = 5;
    /** Anything else (a bug, an I/O failure writing output); details with {@code --verbose}. */
    public static final int FAILURE = 6;

    /**
     * The target store holds a different checkpoint under a version or id being written ({@code import}, {@code copy}).
     */
    public static final int CONFLICT = 7;

    private ExitCode() {}
}
