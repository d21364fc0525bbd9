package dev.agentpersistence.cli;

import dev.agentpersistence.cli.internal.Copier;
import dev.agentpersistence.cli.internal.Json;
import dev.agentpersistence.cli.internal.Progress;
import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.cli.internal.TerminalText;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code copy --from URI --to URI}: moves checkpoints between any two stores, streamed, resumable (a re-run saves only
 * what is missing) and verified at the end (count and SHA-256 per agent).
 */
@Command(
        name = "copy",
        description = "Copy checkpoints from one store to another: streamed, resumable (run it again after "
                + "an interruption; nothing is written twice), verified at the end (counts and SHA-256 per agent).")
final class CopyCommand implements Callable<Integer>, Verbosity {
    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Mixin
    SelectionOptions selection;

    @Option(names = "--from", required = true, paramLabel = "URI", description = "The source store.")
    String from;

    @Option(names = "--to", required = true, paramLabel = "URI", description = "The target store.")
    String to;

    @Option(
            names = "--threads",
            paramLabel = "N",
            defaultValue = "4",
            description = "Agents copied at a time (default 4; 1 copies one agent after the other).")
    int threads;

    @Option(
            names = "--set",
            paramLabel = "KEY=VALUE",
            mapFallbackValue = "",
            description = "A setting for both stores (repeatable).")
    Map<String, String> settings = new LinkedHashMap<>();

    @Option(
            names = "--from-set",
            paramLabel = "KEY=VALUE",
            mapFallbackValue = "",
            description = "A setting for the source only (repeatable).")
    Map<String, String> fromSettings = new LinkedHashMap<>();

    @Option(
            names = "--to-set",
            paramLabel = "KEY=VALUE",
            mapFallbackValue = "",
            description = "A setting for the target only, e.g. its " + "encryption keys (repeatable).")
    Map<String, String> toSettings = new LinkedHashMap<>();

    @Override
    public Integer call() {
        try (Store source = Store.open(from, StoreOptions.readOnly(StoreOptions.settings(merged(fromSettings))));
                Store target = Store.open(to, StoreOptions.settings(merged(toSettings)))) {
            var progress = new Progress(spec.commandLine().getErr(), System.console() != null, System::nanoTime);
            Copier.Result result = new Copier(source, target, selection.selection(), progress, threads).copy();
            print(result, source, target);
            return result.verified() ? ExitCode.OK : ExitCode.PROBLEMS_FOUND;
        }
    }

    @Override
    public boolean verbose() {
        return common.verbose();
    }

    private Map<String, String> merged(Map<String, String> specific) {
        var all = new LinkedHashMap<>(settings);
        all.putAll(specific);
        return all;
    }

    private void print(Copier.Result result, Store source, Store target) {
        var out = spec.commandLine().getOut();
        if (common.json()) {
            var json = Json.object();
            json.put("from", source.description());
            json.put("to", target.description());
            json.put("agents", result.agents());
            json.put("checkpoints", result.checkpoints());
            json.put("copied", result.copied());
            json.put("alreadyThere", result.alreadyThere());
            json.put("verified", result.verified());
            var mismatches = json.putArray("mismatches");
            result.mismatches().forEach(mismatches::add);
            out.println(Json.line(json));
        } else {
            out.println("copied " + result.copied() + " checkpoints of " + result.agents() + " agents from "
                    + source.description() + " to " + target.description() + " (" + result.alreadyThere()
                    + " already there)");
            if (result.verified()) {
                out.println("verified: the target holds the same " + result.checkpoints()
                        + " checkpoints (counts and SHA-256 per agent)");
            } else {
                out.println("NOT verified: " + result.mismatches().size() + " agents differ");
                result.mismatches().forEach(mismatch -> out.println("  " + TerminalText.escape(mismatch)));
            }
        }
        out.flush();
    }
}
