package dev.agentpersistence.cli;

import dev.agentpersistence.cli.internal.CheckpointDiff;
import dev.agentpersistence.cli.internal.Store;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code diff <agent> <v1> <v2>}: messages added and removed, node change, state keys added, removed, changed. */
@Command(
        name = "diff",
        description = "Compare two checkpoints of an agent: messages added and removed, node, state and metadata keys.")
final class DiffCommand extends StoreCommand {
    @Parameters(index = "0", paramLabel = "AGENT", description = "The agent id.")
    String agentId;

    @Parameters(index = "1", paramLabel = "FROM", description = "The older checkpoint: a version or an id.")
    String from;

    @Parameters(index = "2", paramLabel = "TO", description = "The newer checkpoint: a version or an id.")
    String to;

    @Override
    int run(Store store) {
        var diff = CheckpointDiff.of(store.checkpoint(agentId, from), store.checkpoint(agentId, to));
        if (json()) {
            printJson(diff.toJson());
        } else {
            diff.print(out());
        }
        return ExitCode.OK;
    }
}
