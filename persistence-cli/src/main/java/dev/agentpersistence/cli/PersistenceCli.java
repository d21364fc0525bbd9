package dev.agentpersistence.cli;

import dev.agentpersistence.cli.internal.Failures;
import dev.agentpersistence.cli.internal.TerminalText;
import dev.agentpersistence.redaction.Redactor;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code agent-persistence} command line: inspects, checks and moves the checkpoints of any store. {@link #main}
 * runs it as a process; {@link #execute} runs it in-process with given output writers and returns the {@link ExitCode}.
 */
@Command(
        name = "agent-persistence",
        mixinStandardHelpOptions = true,
        versionProvider = CliVersion.class,
        description = "Inspect, check and move the checkpoints of an agent-persistence store.",
        subcommands = {
            AgentsCommand.class,
            ListCommand.class,
            ShowCommand.class,
            DiffCommand.class,
            VerifyCommand.class,
            SweepCommand.class,
            StatsCommand.class,
            ExportCommand.class,
            ImportCommand.class,
            CopyCommand.class,
            ServeCommand.class,
            RunsCommand.class,
            CommandLine.HelpCommand.class
        })
public final class PersistenceCli implements Runnable {
    private static final String NAME = "agent-persistence";

    @picocli.CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Runs the command line and exits with its exit code. */
    public static void main(String[] args) {
        var out = new PrintWriter(new java.io.OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        var err = new PrintWriter(new java.io.OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        System.exit(execute(args, out, err));
    }

    /** Runs the command line with {@code args}, printing to {@code out} and {@code err}; returns the exit code. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        Objects.requireNonNull(args, "args");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
        Redactor redactor = redactorFor(args);
        var commandLine = new CommandLine(new PersistenceCli());
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setParameterExceptionHandler((e, arguments) -> {
            err.println(NAME + ": " + TerminalText.escape(redactor.redact(e.getMessage())));
            err.println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help' for usage.");
            err.flush();
            return ExitCode.USAGE;
        });
        commandLine.setExecutionExceptionHandler((e, cmd, parseResult) -> {
            boolean verbose = cmd.getCommand() instanceof Verbosity command && command.verbose();
            err.println(NAME + ": " + TerminalText.escape(redactor.redact(Failures.describe(e))));
            if (verbose) {
                var trace = new StringWriter();
                redactor.redact(e).printStackTrace(new PrintWriter(trace));
                err.print(trace);
            }
            err.flush();
            return Failures.exitCode(e);
        });
        int code = commandLine.execute(args);
        out.flush();
        return code;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(),
                "no command given (agents, list, show, diff, verify, sweep, stats, export, import, copy, serve)");
    }

    /**
     * Hides the credentials of store URIs and the values of secret-looking settings among {@code args}, also when an
     * option carries them after {@code =} ({@code --set=agent.persistence.jdbc.password=…}).
     */
    static Redactor redactorFor(String[] args) {
        String[] values = new String[args.length];
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            int eq = arg == null ? -1 : arg.indexOf('=');
            values[i] = arg != null && arg.startsWith("-") && eq > 0 ? arg.substring(eq + 1) : arg;
        }
        Redactor redactor = Redactor.forCredentialsIn(values);
        for (String value : values) {
            int eq = value == null ? -1 : value.indexOf('=');
            if (eq > 0
                    && Redactor.isCredentialName(value.substring(0, eq))
                    && value.length() - eq - 1 >= Redactor.MIN_SECRET_LENGTH) {
                redactor = redactor.andSecret(value.substring(eq + 1));
            }
        }
        return redactor;
    }
}
