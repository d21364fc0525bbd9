package dev.agentpersistence.cli;

import dev.agentpersistence.cli.internal.Selection;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import picocli.CommandLine.Option;

/** Which checkpoints {@code export} and {@code copy} take: {@code --agent}, {@code --since}, {@code --until}. */
public final class SelectionOptions {
    @Option(names = "--agent", paramLabel = "AGENT", description = "Only this agent (repeatable; default every agent).")
    List<String> agents;

    @Option(
            names = "--since",
            paramLabel = "INSTANT",
            description = "Only checkpoints created at or after this time (2026-03-01T00:00:00Z).")
    String since;

    @Option(names = "--until", paramLabel = "INSTANT", description = "Only checkpoints created before this time.")
    String until;

    /** The selection these options describe. */
    public Selection selection() {
        return new Selection(agents, instant("--since", since), instant("--until", until));
    }

    private static Instant instant(String option, String text) {
        if (text == null) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw CliException.usage(option + " '" + text + "' is not an instant like 2026-03-01T00:00:00Z");
        }
    }
}
