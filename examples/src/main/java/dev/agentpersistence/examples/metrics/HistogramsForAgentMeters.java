package dev.agentpersistence.examples.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;

/**
 * Turns on histogram buckets for every {@code agent.*} timer and distribution summary, so Prometheus can compute
 * p50/p95/p99 across instances with {@code histogram_quantile} (the storage meters have them already; this adds the
 * pipeline's and the facade's). Sizes are bucketed from 64 bytes to 256 MiB to keep the number of buckets small.
 */
public final class HistogramsForAgentMeters implements MeterFilter {

    @Override
    public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
        if (!id.getName().startsWith("agent.")) {
            return config;
        }
        if (id.getType() == Meter.Type.TIMER) {
            return DistributionStatisticConfig.builder()
                    .percentilesHistogram(true)
                    .build()
                    .merge(config);
        }
        if (id.getType() == Meter.Type.DISTRIBUTION_SUMMARY) {
            return DistributionStatisticConfig.builder()
                    .percentilesHistogram(true)
                    .minimumExpectedValue(64.0)
                    .maximumExpectedValue(256.0 * 1024 * 1024)
                    .build()
                    .merge(config);
        }
        return config;
    }
}
