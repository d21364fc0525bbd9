package dev.agentpersistence.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.cli.internal.Json;
import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.cli.internal.TextTable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
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

    /** One row, kept without the checkpoint's content. */
    private record Row(long version, String checkpointId, String nodeId, String createdAt, int messages, Integer bytes) {
    }

    @Override
    int run(Store store) {
        if (limit != null && limit < 1) {
            throw CliException.usage("--limit must be at least 1 but was " + limit);
        }
        var rows = new ArrayList<Row>();
        store.pages(agentId, page -> {
            Map<Long, Integer> sizes = store.storedSizes(agentId, page);
            var rowsOfPage = new ArrayList<Row>();
            for (AgentCheckpoint checkpoint : page) {
                rowsOfPage.add(new Row(checkpoint.version(), checkpoint.checkpointId(), checkpoint.nodeId(),
                        checkpoint.createdAt().toString(), checkpoint.messageHistory().size(), sizes.get(checkpoint.version())));
            }
            Collections.reverse(rowsOfPage);
            rows.addAll(rowsOfPage);
            return limit == null || rows.size() < limit;
        });
        List<Row> shown = new ArrayList<>(limit == null ? rows : rows.subList(0, Math.min(limit, rows.size())));
        Collections.reverse(shown);
        if (rows.isEmpty() && !store.agents().contains(agentId)) {
            throw CliException.notFound("no agent '" + agentId + "' in " + store.description());
        }
        if (json()) {
            var json = Json.array();
            for (Row row : shown) {
                ObjectNode entry = json.addObject();
                entry.put("version", row.version());
                entry.put("checkpointId", row.checkpointId());
                entry.put("nodeId", row.nodeId());
                entry.put("createdAt", row.createdAt());
                entry.put("messages", row.messages());
                if (row.bytes() != null) {
                    entry.put("bytes", row.bytes());
                }
            }
            printJson(json);
        } else {
            var table = new TextTable("VERSION", "NODE", "CREATED", "MESSAGES", "SIZE", "ID");
            shown.forEach(row -> table.row(row.version(), row.nodeId(), row.createdAt(), row.messages(),
                    row.bytes() == null ? null : TextTable.bytes(row.bytes()), row.checkpointId()));
            table.print(out());
        }
        return ExitCode.OK;
    }
}
