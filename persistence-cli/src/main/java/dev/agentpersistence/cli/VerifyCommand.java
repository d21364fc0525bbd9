package dev.agentpersistence.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.cli.internal.CheckpointProblem;
import dev.agentpersistence.cli.internal.Json;
import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.cli.internal.StoreVerifier;
import dev.agentpersistence.cli.internal.TextTable;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code verify}: reads every checkpoint and reports the unreadable ones by location; exit code 1 when any. */
@Command(
        name = "verify",
        description = "Read every checkpoint (of every agent, or of --agent) and report the unreadable ones "
                + "by location; exit code 1 when there are any.")
final class VerifyCommand extends StoreCommand {
    @Option(names = "--agent", paramLabel = "AGENT", description = "Only this agent (repeatable).")
    List<String> agents;

    @Override
    int run(Store store) {
        List<String> agentIds = agents == null || agents.isEmpty() ? store.agents() : agents;
        var verifier = new StoreVerifier(store);
        var problems = new ArrayList<CheckpointProblem>();
        for (String agentId : agentIds) {
            problems.addAll(verifier.verify(agentId));
        }
        if (json()) {
            ObjectNode json = Json.object();
            json.put("store", store.description());
            json.put("agents", agentIds.size());
            json.put("readable", verifier.checked());
            problems.forEach(problem -> json.withArray("unreadable").add(problem.toJson()));
            if (problems.isEmpty()) {
                json.putArray("unreadable");
            }
            printJson(json);
        } else {
            if (!problems.isEmpty()) {
                var table = new TextTable("AGENT", "VERSION", "CHECKPOINT", "LOCATION", "PROBLEM");
                problems.forEach(p -> table.row(
                        p.agentId(),
                        p.version() < 0 ? null : p.version(),
                        p.checkpointId(),
                        p.location(),
                        p.problem()));
                table.print(out());
            }
            out().println("verified " + store.description() + ": " + agentIds.size() + " agents, " + verifier.checked()
                    + " checkpoints readable, " + problems.size() + " unreadable");
            out().flush();
        }
        return problems.isEmpty() ? ExitCode.OK : ExitCode.PROBLEMS_FOUND;
    }
}
