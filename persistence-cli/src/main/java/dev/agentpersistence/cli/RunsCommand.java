package dev.agentpersistence.cli;

import dev.agentpersistence.cli.internal.Json;
import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.cli.internal.TextTable;
import dev.agentpersistence.pipeline.PipelineQueue;
import dev.agentpersistence.pipeline.QueuedRun;
import java.time.Clock;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code runs list|cancel|retry}: the durable queue of a pipeline's runs ({@link PipelineQueue}), as workers in any
 * process see it; {@code list} only reads.
 */
@Command(
        name = "runs",
        description = "The queued runs of a pipeline run by workers: list them, cancel one, or put a failed or "
                + "cancelled one back in the queue.",
        subcommands = {RunsCommand.ListRuns.class, RunsCommand.Cancel.class, RunsCommand.Retry.class})
final class RunsCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "say list, cancel or retry");
    }

    /** The part every subcommand shares: the pipeline whose queue it reads. */
    abstract static class QueueCommand extends StoreCommand {
        @Option(
                names = "--pipeline",
                required = true,
                paramLabel = "NAME",
                description = "The pipeline's name (Pipeline.builder(name, …)).")
        String pipeline;

        PipelineQueue queue(Store store) {
            return PipelineQueue.of(store.provider(), pipeline, Clock.systemUTC());
        }
    }

    /** {@code runs list}. */
    @Command(name = "list", description = "List the pipeline's queued runs: status, retries, next try, lease holder.")
    static final class ListRuns extends QueueCommand {
        @Override
        int run(Store store) {
            var runs = queue(store).runs();
            if (json()) {
                var array = Json.MAPPER.createArrayNode();
                for (QueuedRun run : runs) {
                    var node = array.addObject()
                            .put("runId", run.runId())
                            .put("status", run.status().name().toLowerCase(Locale.ROOT))
                            .put("retries", run.retries());
                    run.notBefore().ifPresent(at -> node.put("notBefore", at.toString()));
                    run.holder().ifPresent(holder -> node.put("holder", holder));
                    run.detail().ifPresent(detail -> node.put("detail", detail));
                }
                printJson(array);
            } else if (runs.isEmpty()) {
                out().println("no queued runs of pipeline '" + pipeline + "' in " + store.description());
            } else {
                var table = new TextTable("RUN", "STATUS", "RETRIES", "NEXT TRY", "HOLDER", "DETAIL");
                for (QueuedRun run : runs) {
                    table.row(
                            run.runId(),
                            run.status().name().toLowerCase(Locale.ROOT),
                            run.retries(),
                            run.notBefore().map(Object::toString).orElse(null),
                            run.holder().orElse(null),
                            run.detail().orElse(null));
                }
                table.print(out());
            }
            return ExitCode.OK;
        }
    }

    /** {@code runs cancel}. */
    @Command(name = "cancel", description = "Take a run out of the queue (a worker holding it finishes its try).")
    static final class Cancel extends QueueCommand {
        @Parameters(index = "0", paramLabel = "RUN", description = "The run id.")
        String runId;

        @Option(names = "--reason", paramLabel = "TEXT", description = "Why, shown by runs list.")
        String reason = "cancelled from the command line";

        @Override
        boolean writes() {
            return true;
        }

        @Override
        int run(Store store) {
            if (!queue(store).cancel(runId, reason)) {
                return notChanged(store, "is not in the queue or has finished");
            }
            out().println("cancelled run '" + runId + "' of pipeline '" + pipeline + "'");
            return ExitCode.OK;
        }
    }

    /** {@code runs retry}. */
    @Command(name = "retry", description = "Put a failed or cancelled run back in the queue.")
    static final class Retry extends QueueCommand {
        @Parameters(index = "0", paramLabel = "RUN", description = "The run id.")
        String runId;

        @Override
        boolean writes() {
            return true;
        }

        @Override
        int run(Store store) {
            if (!queue(store).retry(runId)) {
                return notChanged(store, "is not a failed or cancelled run of the queue");
            }
            out().println("queued run '" + runId + "' of pipeline '" + pipeline + "' again");
            return ExitCode.OK;
        }
    }

    private static int notChanged(Store store, String why) {
        throw new CliException(
                ExitCode.NOT_FOUND, "nothing changed: the run " + why + " (" + store.description() + ")");
    }
}
