package dev.agentpersistence.metrics;

import java.util.Arrays;
import java.util.Objects;

/**
 * Settings of {@link MeteredStorageProvider}: which percentiles to publish, whether to publish a histogram for
 * server-side percentiles, and whether to record checkpoint sizes (costs one JSON encoding per save). Immutable; build
 * with {@link #custom()}.
 */
public final class StorageMetricsConfig {
    /** Lowest bucket of the checkpoint size histogram, in bytes. */
    public static final double MIN_EXPECTED_SIZE_BYTES = 64;
    /** Highest bucket of the checkpoint size histogram, in bytes (256 MiB). */
    public static final double MAX_EXPECTED_SIZE_BYTES = 256.0 * 1024 * 1024;

    private static final StorageMetricsConfig DEFAULTS = custom().build();

    private final double[] percentiles;
    private final boolean percentileHistogram;
    private final boolean recordSize;

    private StorageMetricsConfig(Builder builder) {
        this.percentiles = builder.percentiles.clone();
        this.percentileHistogram = builder.percentileHistogram;
        this.recordSize = builder.recordSize;
    }

    /** No client-side percentiles, histogram on, sizes recorded. */
    public static StorageMetricsConfig ofDefaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder();
    }

    /** Client-side percentiles to publish, each in [0, 1]. */
    public double[] percentiles() {
        return percentiles.clone();
    }

    /** Whether histogram buckets are published (for {@code histogram_quantile} in Prometheus). */
    public boolean percentileHistogram() {
        return percentileHistogram;
    }

    /** Whether checkpoint sizes are recorded. */
    public boolean recordSize() {
        return recordSize;
    }

    @Override
    public String toString() {
        return "StorageMetricsConfig[percentiles=" + Arrays.toString(percentiles) + ", percentileHistogram="
                + percentileHistogram + ", recordSize=" + recordSize + "]";
    }

    /** Builds {@link StorageMetricsConfig}s. */
    public static final class Builder {
        private double[] percentiles = new double[0];
        private boolean percentileHistogram = true;
        private boolean recordSize = true;

        private Builder() {}

        /** Publishes these client-side percentiles, e.g. {@code 0.5, 0.95, 0.99}. */
        public Builder percentiles(double... percentiles) {
            Objects.requireNonNull(percentiles, "percentiles");
            for (double p : percentiles) {
                if (!(p >= 0 && p <= 1)) {
                    throw new IllegalArgumentException(
                            "percentiles must be within [0, 1] but got " + Arrays.toString(percentiles));
                }
            }
            this.percentiles = percentiles.clone();
            return this;
        }

        /** Publishes histogram buckets so the monitoring system can compute percentiles. */
        public Builder percentileHistogram(boolean enabled) {
            this.percentileHistogram = enabled;
            return this;
        }

        /** Records {@code agent.persistence.checkpoint.size}; costs one JSON encoding per save. */
        public Builder recordSize(boolean enabled) {
            this.recordSize = enabled;
            return this;
        }

        /** The immutable settings. */
        public StorageMetricsConfig build() {
            return new StorageMetricsConfig(this);
        }
    }
}
