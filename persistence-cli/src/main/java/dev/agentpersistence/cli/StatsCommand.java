package dev.agentpersistence.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.cli.internal.Json;
import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.cli.internal.TextTable;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.Command;

/** {@code stats}: checkpoints and stored bytes per agent, and the growth per day (UTC). */
@Command(name = "stats", description = "Checkpoints and stored bytes per agent, and how the store grew per day (UTC).")
final class StatsCommand extends StoreCommand {

    /** Running totals of one agent or one day. */
    private static final class Totals {
        long checkpoints;
        long bytes;
        Instant first;
        Instant last;

        void add(AgentCheckpoint checkpoint, Integer size) {
            checkpoints++;
            bytes += size == null ? 0 : size;
            first = first == null || checkpoint.createdAt().isBefore(first) ? checkpoint.createdAt() : first;
            last = last == null || checkpoint.createdAt().isAfter(last) ? checkpoint.createdAt() : last;
        }
    }

    @Override
    int run(Store store) {
        var agents = new TreeMap<String, Totals>();
        var days = new TreeMap<LocalDate, Totals>();
        for (String agentId : store.agents()) {
            Totals agent = agents.computeIfAbsent(agentId, id -> new Totals());
            store.pages(agentId, page -> {
                Map<Long, Integer> sizes = store.storedSizes(agentId, page);
                for (AgentCheckpoint checkpoint : page) {
                    Integer size = sizes.get(checkpoint.version());
                    agent.add(checkpoint, size);
                    days.computeIfAbsent(
                                    LocalDate.ofInstant(checkpoint.createdAt(), ZoneOffset.UTC), day -> new Totals())
                            .add(checkpoint, size);
                }
                return true;
            });
        }
        if (json()) {
            printJson(json(store, agents, days));
            return ExitCode.OK;
        }
        var perAgent = new TextTable("AGENT", "CHECKPOINTS", "SIZE", "FIRST", "LAST");
        agents.forEach((id, t) -> perAgent.row(id, t.checkpoints, TextTable.bytes(t.bytes), t.first, t.last));
        perAgent.print(out());
        out().println();
        var perDay = new TextTable("DAY", "CHECKPOINTS", "SIZE", "TOTAL CHECKPOINTS", "TOTAL SIZE");
        long checkpoints = 0;
        long bytes = 0;
        for (var day : days.entrySet()) {
            checkpoints += day.getValue().checkpoints;
            bytes += day.getValue().bytes;
            perDay.row(
                    day.getKey(),
                    day.getValue().checkpoints,
                    TextTable.bytes(day.getValue().bytes),
                    checkpoints,
                    TextTable.bytes(bytes));
        }
        perDay.print(out());
        return ExitCode.OK;
    }

    private static ObjectNode json(Store store, Map<String, Totals> agents, Map<LocalDate, Totals> days) {
        ObjectNode json = Json.object();
        json.put("store", store.description());
        var agentArray = json.putArray("agents");
        long checkpoints = 0;
        long bytes = 0;
        for (var agent : agents.entrySet()) {
            ObjectNode entry = agentArray.addObject();
            entry.put("agentId", agent.getKey());
            entry.put("checkpoints", agent.getValue().checkpoints);
            entry.put("bytes", agent.getValue().bytes);
            entry.put("firstCreatedAt", String.valueOf(agent.getValue().first));
            entry.put("lastCreatedAt", String.valueOf(agent.getValue().last));
            checkpoints += agent.getValue().checkpoints;
            bytes += agent.getValue().bytes;
        }
        json.put("checkpoints", checkpoints);
        json.put("bytes", bytes);
        var dayArray = json.putArray("days");
        days.forEach((day, totals) -> {
            ObjectNode entry = dayArray.addObject();
            entry.put("day", day.toString());
            entry.put("checkpoints", totals.checkpoints);
            entry.put("bytes", totals.bytes);
        });
        return json;
    }
}
