package dev.agentpersistence.cli.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.backend.AgentSummary;
import dev.agentpersistence.cli.CliException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The JSON reports shared by the commands ({@code agents --json}, {@code list --json}) and the web inspector's API, so
 * both say the same thing.
 */
public final class Reports {
    private Reports() {}

    /**
     * Every agent: {@code agentId}, {@code kind} (its {@link AgentNamespace}: {@code run}, {@code journal},
     * {@code langchain4j}, …, or {@code plain} for an id given without one), {@code checkpoints}, {@code bytes} (when
     * known), and its latest checkpoint's version, node and time.
     */
    public static ArrayNode agents(Store store) {
        ArrayNode json = Json.array();
        for (AgentSummary summary : store.agentSummaries()) {
            ObjectNode agent = json.addObject();
            agent.put("agentId", summary.agentId());
            agent.put("kind", kind(summary.agentId()));
            agent.put("checkpoints", summary.checkpoints());
            if (summary.bytes() >= 0) {
                agent.put("bytes", summary.bytes());
            }
            summary.latest().ifPresent(latest -> {
                agent.put("latestVersion", latest.version());
                agent.put("latestNodeId", latest.nodeId());
                agent.put("latestCreatedAt", latest.createdAt().toString());
            });
        }
        return json;
    }

    /** The kind of agent an id names: its namespace's name, or {@code plain}. */
    public static String kind(String agentId) {
        return AgentNamespace.containing(agentId).map(AgentNamespace::name).orElse("plain");
    }

    /**
     * The agent's checkpoints, oldest first (the newest {@code limit} when not {@code null}): {@code version},
     * {@code checkpointId}, {@code nodeId}, {@code createdAt}, {@code messages}, {@code tombstone}, {@code metadata},
     * {@code bytes} (when known).
     *
     * @throws CliException when the agent has no checkpoints
     */
    public static ArrayNode timeline(Store store, String agentId, Integer limit) {
        var rows = new ArrayList<ObjectNode>();
        store.pages(agentId, page -> {
            Map<Long, Integer> sizes = store.storedSizes(agentId, page);
            for (int i = page.size() - 1; i >= 0; i--) {
                AgentCheckpoint checkpoint = page.get(i);
                ObjectNode row = Json.object();
                row.put("version", checkpoint.version());
                row.put("checkpointId", checkpoint.checkpointId());
                row.put("nodeId", checkpoint.nodeId());
                row.put("createdAt", checkpoint.createdAt().toString());
                row.put("messages", checkpoint.messageHistory().size());
                row.put("tombstone", checkpoint.isTombstone());
                ObjectNode metadata = row.putObject("metadata");
                checkpoint.metadata().forEach(metadata::put);
                Integer bytes = sizes.get(checkpoint.version());
                if (bytes != null) {
                    row.put("bytes", bytes);
                }
                rows.add(row);
            }
            return limit == null || rows.size() < limit;
        });
        if (rows.isEmpty() && !store.agents().contains(agentId)) {
            throw CliException.notFound("no agent '" + agentId + "' in " + store.description());
        }
        List<ObjectNode> shown = new ArrayList<>(limit == null ? rows : rows.subList(0, Math.min(limit, rows.size())));
        Collections.reverse(shown);
        ArrayNode json = Json.array();
        json.addAll(shown);
        return json;
    }
}
