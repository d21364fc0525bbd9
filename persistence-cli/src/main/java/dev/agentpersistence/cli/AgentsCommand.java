package dev.agentpersistence.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.agentpersistence.cli.internal.Reports;
import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.cli.internal.TextTable;
import picocli.CommandLine.Command;

/**
 * {@code agents}: every agent with its kind (namespace), its checkpoint count, stored bytes, latest version, node and
 * time.
 */
@Command(
        name = "agents",
        description = "List the agents: kind (run, journal, langchain4j, …, plain), checkpoints, stored size, "
                + "latest version, node and time.")
final class AgentsCommand extends StoreCommand {

    @Override
    int run(Store store) {
        ArrayNode agents = Reports.agents(store);
        if (json()) {
            printJson(agents);
        } else if (agents.isEmpty()) {
            out().println("no agents in " + store.description());
        } else {
            var table = new TextTable("AGENT", "KIND", "CHECKPOINTS", "SIZE", "LATEST", "NODE", "CREATED");
            for (JsonNode agent : agents) {
                table.row(
                        agent.get("agentId").asText(),
                        agent.get("kind").asText(),
                        agent.get("checkpoints").asLong(),
                        agent.has("bytes") ? TextTable.bytes(agent.get("bytes").asLong()) : null,
                        text(agent, "latestVersion"),
                        text(agent, "latestNodeId"),
                        text(agent, "latestCreatedAt"));
            }
            table.print(out());
        }
        return ExitCode.OK;
    }

    /** The field as text, or {@code null} when absent or JSON null. */
    static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
