package dev.agentpersistence.benchmarks;

import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.benchmarks.report.OpResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The JMH part of a run. Options given on the command line win; the mode supplies everything else: the three benchmark
 * classes, iterations, forks, shapes, history sizes, the GC profiler, and the run's settings as system properties of
 * every fork.
 */
final class OpsRun {
    private OpsRun() {}

    /**
     * @param backends the backends to measure
     * @param incrementalBackends those of them that can store histories incrementally
     */
    static List<OpResult> run(
            RunMode mode,
            BenchSettings settings,
            List<String> backends,
            List<String> incrementalBackends,
            CommandLineOptions cli,
            Path resultsDir)
            throws RunnerException {
        List<RunMode.Pass> passes = cli.getIncludes().isEmpty()
                ? mode.passes()
                : List.of(new RunMode.Pass(String.join("|", cli.getIncludes()), Map.of()));
        var results = new ArrayList<OpResult>();
        for (int i = 0; i < passes.size(); i++) {
            RunMode.Pass pass = passes.get(i);
            boolean incremental =
                    pass.params().getOrDefault("history", List.of()).contains("incremental");
            results.addAll(runPass(
                    mode,
                    pass,
                    settings,
                    incremental ? incrementalBackends : backends,
                    cli,
                    resultsDir.resolve("jmh-" + (i + 1) + ".json")));
        }
        return results;
    }

    private static List<OpResult> runPass(
            RunMode mode,
            RunMode.Pass pass,
            BenchSettings settings,
            List<String> backends,
            CommandLineOptions cli,
            Path resultFile)
            throws RunnerException {
        var options = new OptionsBuilder().parent(cli).include(pass.include());
        if (!cli.getWarmupIterations().hasValue()) {
            options.warmupIterations(mode.warmupIterations());
        }
        if (!cli.getMeasurementIterations().hasValue()) {
            options.measurementIterations(mode.iterations());
        }
        if (!cli.getWarmupTime().hasValue()) {
            options.warmupTime(TimeValue.milliseconds(mode.iterationMillis()));
        }
        if (!cli.getMeasurementTime().hasValue()) {
            options.measurementTime(TimeValue.milliseconds(mode.iterationMillis()));
        }
        if (!cli.getForkCount().hasValue()) {
            options.forks(mode.forks());
        }
        pass.params().forEach((name, values) -> {
            if (!cli.getParameter(name).hasValue()) {
                options.param(name, values.toArray(String[]::new));
            }
        });
        if (!cli.getParameter("backend").hasValue()) {
            options.param("backend", backends.toArray(String[]::new));
        }
        if (cli.getProfilers().isEmpty()) {
            options.addProfiler(GCProfiler.class);
        }
        if (!cli.getTimeUnit().hasValue()) {
            options.timeUnit(TimeUnit.MICROSECONDS);
        }
        var jvmArgs = new ArrayList<>(settings.jvmArguments());
        jvmArgs.add("-Xmx4g");
        jvmArgs.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        options.jvmArgsAppend(jvmArgs.toArray(String[]::new));
        if (!cli.getResult().hasValue()) {
            options.result(resultFile.toString()).resultFormat(ResultFormatType.JSON);
        }
        return convert(new Runner(options.build()).run());
    }

    private static List<OpResult> convert(Collection<RunResult> runs) {
        var results = new ArrayList<OpResult>();
        for (RunResult run : runs) {
            var params = run.getParams();
            Map<String, String> values = new LinkedHashMap<>();
            for (String key : params.getParamsKeys()) {
                values.put(key, params.getParam(key));
            }
            String benchmark = params.getBenchmark();
            String name = benchmark.substring(benchmark.lastIndexOf('.', benchmark.lastIndexOf('.') - 1) + 1);
            Result<?> primary = run.getPrimaryResult();
            double scale = toMicros(primary.getScoreUnit());
            Result<?> alloc = run.getSecondaryResults().get("gc.alloc.rate.norm");
            if (alloc == null) {
                alloc = run.getSecondaryResults().get("·gc.alloc.rate.norm");
            }
            results.add(new OpResult(
                    name,
                    values,
                    primary.getScore() * scale,
                    primary.getScoreError() * scale,
                    alloc == null ? Double.NaN : alloc.getScore()));
        }
        return results;
    }

    private static double toMicros(String unit) {
        return switch (unit) {
            case "ns/op" -> 1e-3;
            case "us/op" -> 1;
            case "ms/op" -> 1e3;
            case "s/op" -> 1e6;
            default -> throw new IllegalStateException("Unexpected unit " + unit + ": use an average-time mode");
        };
    }
}
