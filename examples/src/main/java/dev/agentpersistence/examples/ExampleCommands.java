package dev.agentpersistence.examples;

import picocli.CommandLine;

/** Runs an example's picocli command, reporting a failure as short lines instead of a stack trace. */
public final class ExampleCommands {
    private ExampleCommands() {}

    /** Runs {@code command} with {@code args}; exits the JVM with the command's code when it is not 0. */
    public static void run(Object command, String... args) {
        int code = new CommandLine(command)
                .setExecutionExceptionHandler((error, line, parsed) -> {
                    line.getErr().println("error: " + describe(error));
                    for (Throwable cause = error.getCause();
                            cause != null && cause != cause.getCause();
                            cause = cause.getCause()) {
                        line.getErr().println("  caused by: " + describe(cause));
                    }
                    return 2;
                })
                .execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    private static String describe(Throwable error) {
        return error.getClass().getSimpleName() + (error.getMessage() == null ? "" : ": " + error.getMessage());
    }
}
