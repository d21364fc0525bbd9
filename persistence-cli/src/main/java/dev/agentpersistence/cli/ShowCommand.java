package dev.agentpersistence.cli;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.cli.internal.ConversationPrinter;
import dev.agentpersistence.cli.internal.Json;
import dev.agentpersistence.cli.internal.Store;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code show <agent> [<version>|<id>]}: one checkpoint, its messages as a conversation, or its stored JSON form. */
@Command(
        name = "show",
        description =
                "Show one checkpoint (the newest by default) with its conversation; --json prints its stored JSON "
                        + "form.")
final class ShowCommand extends StoreCommand {
    @Parameters(index = "0", paramLabel = "AGENT", description = "The agent id.")
    String agentId;

    @Parameters(
            index = "1",
            arity = "0..1",
            paramLabel = "VERSION|ID",
            description = "A version number or a checkpoint id.")
    String reference;

    @Override
    int run(Store store) {
        AgentCheckpoint checkpoint = store.checkpoint(agentId, reference);
        if (json()) {
            printJson(Json.checkpoint(checkpoint));
        } else {
            ConversationPrinter.print(checkpoint, out());
        }
        return ExitCode.OK;
    }
}
