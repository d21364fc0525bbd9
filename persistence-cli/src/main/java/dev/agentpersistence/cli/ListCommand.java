package dev.agentpersistence.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.agentpersistence.cli.internal.Reports;
import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.cli.internal.TextTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code list <agent>}: the agent's checkpoints, oldest first: version, node, time, messages, stored size. */
@Command(name = "list", description = "List an agent's checkpoints: version, node, created, messages, stored size.")
final class ListCommand extends StoreCommand {
    @Parameters(index = "0", paramLabel = "AGENT", description = "The agent id.")
    String agentId;

    @Option(names = "--limit", paramLabel = "N", description = "Only the N newest checkpoints.")
    Integer limit;

    @Override
    int run(Store store) {
        if (limit != null && limit < 1) {
            throw CliException.usage("--limit must be at least 1 but was " + limit);
        }
        ArrayNode rows = Reports.timeline(store, agentId, limit);
        if (json()) {
            printJson(rows);
        } else {
            var table = new TextTable("VERSION", "NODE", "CREATED", "MESSAGES", "SIZE", "ID");
            for (JsonNode row : rows) {
                table.row(
                        row.get("version").asLong(),
                        AgentsCommand.text(row, "nodeId"),
                        row.get("createdAt").asText(),
                        row.get("messages").asInt(),
                        row.has("bytes") ? TextTable.bytes(row.get("bytes").asLong()) : null,
                        row.get("checkpointId").asText());
            }
            table.print(out());
        }
        return ExitCode.OK;
    }
}
