package dev.agentpersistence.benchmarks.report;

import java.util.Map;

/**
 * One JMH result: a benchmark method with its parameters.
 *
 * @param benchmark {@code Class.method}, e.g. {@code ProviderBenchmarks.save}
 * @param params JMH parameters, e.g. {@code backend=redis, shape=10x10}
 * @param micros mean time per operation in microseconds
 * @param error the 99.9% confidence half-width, in microseconds (NaN with too few iterations)
 * @param allocBytes bytes allocated per operation ({@code -prof gc}), or NaN
 */
public record OpResult(String benchmark, Map<String, String> params, double micros, double error, double allocBytes) {

    /** Whether this is {@code benchmark} with every given parameter value. */
    public boolean is(String benchmark, Map<String, String> wanted) {
        return this.benchmark.equals(benchmark) && params.entrySet().containsAll(wanted.entrySet());
    }
}
