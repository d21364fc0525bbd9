package dev.agentpersistence.cli;

/** What a command tells the error handler: whether to print stack traces. */
interface Verbosity {
    /** Whether failures print their stack trace. */
    boolean verbose();
}
