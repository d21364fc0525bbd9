package dev.agentpersistence.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.cli.internal.Json;
import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.cli.internal.TextTable;
import dev.agentpersistence.history.RetentionPolicy;
import dev.agentpersistence.history.RetentionSweeper;
import dev.agentpersistence.history.SweepReport;
import dev.agentpersistence.spi.ProviderConfig;
import java.util.List;
import java.util.OptionalLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sweep}: applies a retention policy with the API's {@link RetentionSweeper}; a dry run (what would be deleted)
 * unless {@code --apply}.
 */
@Command(
        name = "sweep",
        description = "Apply a retention policy (--keep-latest, --max-age, or the agent.persistence.retention.* "
                + "settings). Only reports what it would delete unless --apply.")
final class SweepCommand extends StoreCommand {
    @Option(names = "--keep-latest", paramLabel = "N", description = "Keep each agent's N newest checkpoints.")
    String keepLatest;

    @Option(
            names = "--max-age",
            paramLabel = "DURATION",
            description = "Delete checkpoints older than this (30d, 12h, PT90M).")
    String maxAge;

    @Option(names = "--agent", paramLabel = "AGENT", description = "Only this agent (repeatable).")
    List<String> agents;

    @Option(names = "--apply", description = "Delete; without it nothing is deleted.")
    boolean apply;

    @Override
    boolean writes() {
        return apply;
    }

    @Override
    int run(Store store) {
        ProviderConfig config = store.config();
        if (keepLatest != null) {
            config = config.with(RetentionPolicy.KEEP_LATEST.key(), keepLatest);
        }
        if (maxAge != null) {
            config = config.with(RetentionPolicy.MAX_AGE.key(), maxAge);
        }
        RetentionPolicy policy = RetentionPolicy.from(config);
        if (policy.keepsAll()) {
            throw CliException.usage("no retention policy: pass --keep-latest N or --max-age DURATION (or set "
                    + RetentionPolicy.KEEP_LATEST.key() + " / " + RetentionPolicy.MAX_AGE.key() + ")");
        }
        var sweeper = RetentionSweeper.builder(store.provider()).policy(policy).build();
        List<String> agentIds = agents == null || agents.isEmpty() ? store.agents() : agents;
        return apply ? apply(sweeper, agentIds) : dryRun(store, sweeper, agentIds);
    }

    private int dryRun(Store store, RetentionSweeper sweeper, List<String> agentIds) {
        var table = new TextTable("AGENT", "WOULD DELETE", "BELOW VERSION");
        var json = Json.object();
        json.put("applied", false);
        json.put("policy", sweeper.policy().toString());
        var perAgent = json.putArray("agents");
        long total = 0;
        for (String agentId : agentIds) {
            OptionalLong cutoff = sweeper.cutoff(agentId);
            long count = cutoff.isPresent() ? count(store, agentId, cutoff.getAsLong()) : 0;
            total += count;
            ObjectNode entry = perAgent.addObject();
            entry.put("agentId", agentId);
            entry.put("wouldDelete", count);
            if (cutoff.isPresent()) {
                entry.put("belowVersion", cutoff.getAsLong());
            }
            table.row(agentId, count, cutoff.isPresent() ? cutoff.getAsLong() : null);
        }
        json.put("wouldDelete", total);
        if (json()) {
            printJson(json);
        } else {
            table.print(out());
            out().println("dry run (" + sweeper.policy() + "): would delete " + total
                    + " checkpoints; run again with --apply to delete them");
            out().flush();
        }
        return ExitCode.OK;
    }

    private int apply(RetentionSweeper sweeper, List<String> agentIds) {
        SweepReport report = agents == null || agents.isEmpty() ? sweeper.sweep() : sweeper.sweep(agentIds);
        if (json()) {
            var json = Json.object();
            json.put("applied", true);
            json.put("policy", sweeper.policy().toString());
            json.put("agentsVisited", report.agentsVisited());
            json.put("checkpointsDeleted", report.checkpointsDeleted());
            json.put("expiredDeleted", report.expiredDeleted());
            json.put("segmentsDeleted", report.segmentsDeleted());
            var failed = json.putArray("failedAgents");
            report.failedAgents().forEach(failed::add);
            printJson(json);
        } else {
            out().println("swept " + report.agentsVisited() + " agents (" + sweeper.policy() + "): deleted "
                    + report.checkpointsDeleted() + " checkpoints, " + report.expiredDeleted() + " expired, "
                    + report.segmentsDeleted() + " history segments"
                    + (report.failedAgents().isEmpty() ? "" : "; failed: " + String.join(", ", report.failedAgents())));
            out().flush();
        }
        return report.failedAgents().isEmpty() ? ExitCode.OK : ExitCode.PROBLEMS_FOUND;
    }

    private static long count(Store store, String agentId, long below) {
        long[] count = {0};
        store.pages(agentId, CheckpointFilter.builder().maxVersion(below - 1).build(), page -> {
            count[0] += page.size();
            return true;
        });
        return count[0];
    }
}
