package dev.agentpersistence.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.cli.internal.Json;
import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.cli.internal.TextTable;
import picocli.CommandLine.Command;

/** {@code agents}: every agent with its checkpoint count, stored bytes, latest version, node and time. */
@Command(name = "agents", description = "List the agents: checkpoints, stored size, latest version, node and time.")
final class AgentsCommand extends StoreCommand {

    @Override
    int run(Store store) {
        var table = new TextTable("AGENT", "CHECKPOINTS", "SIZE", "LATEST", "NODE", "CREATED");
        ArrayNode json = Json.array();
        for (String agentId : store.agents()) {
            Store.Footprint footprint = store.footprint(agentId);
            AgentCheckpoint latest = store.latest(agentId).orElse(null);
            if (json()) {
                ObjectNode agent = json.addObject();
                agent.put("agentId", agentId);
                agent.put("checkpoints", footprint.checkpoints());
                if (footprint.bytes() >= 0) {
                    agent.put("bytes", footprint.bytes());
                }
                if (latest != null) {
                    agent.put("latestVersion", latest.version());
                    agent.put("latestNodeId", latest.nodeId());
                    agent.put("latestCreatedAt", latest.createdAt().toString());
                }
            } else {
                table.row(agentId, footprint.checkpoints(), footprint.bytes() < 0 ? null : TextTable.bytes(footprint.bytes()),
                        latest == null ? null : latest.version(), latest == null ? null : latest.nodeId(),
                        latest == null ? null : latest.createdAt());
            }
        }
        if (json()) {
            printJson(json);
        } else if (table.isEmpty()) {
            out().println("no agents in " + store.description());
        } else {
            table.print(out());
        }
        return ExitCode.OK;
    }
}
