package dev.agentpersistence.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StorageMetricsConfigTest {

    @Test
    void defaultsPublishHistogramsAndSizesButNoClientSidePercentiles() {
        var defaults = StorageMetricsConfig.ofDefaults();
        assertThat(defaults.percentiles()).isEmpty();
        assertThat(defaults.percentileHistogram()).isTrue();
        assertThat(defaults.recordSize()).isTrue();
        assertThat(StorageMetricsConfig.custom().build().toString()).isEqualTo(defaults.toString());
    }

    @Test
    void keepsTheConfiguredValues() {
        var config = StorageMetricsConfig.custom()
                .percentiles(0, 0.5, 1)
                .percentileHistogram(false)
                .recordSize(false)
                .build();
        assertThat(config.percentiles()).containsExactly(0, 0.5, 1);
        assertThat(config.percentileHistogram()).isFalse();
        assertThat(config.recordSize()).isFalse();
        assertThat(config)
                .hasToString("StorageMetricsConfig[percentiles=[0.0, 0.5, 1.0], percentileHistogram=false, "
                        + "recordSize=false]");
    }

    @ParameterizedTest
    @ValueSource(doubles = {-0.01, 1.01, 95, Double.NaN, Double.POSITIVE_INFINITY})
    void rejectsPercentilesOutsideZeroToOne(double percentile) {
        assertThatThrownBy(() -> StorageMetricsConfig.custom().percentiles(0.5, percentile))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("within [0, 1]");
    }

    @Test
    void rejectsNullPercentiles() {
        assertThatThrownBy(() -> StorageMetricsConfig.custom().percentiles((double[]) null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void isImmutable() {
        double[] given = {0.5, 0.9};
        var builder = StorageMetricsConfig.custom().percentiles(given);
        var config = builder.build();
        given[0] = 0.1;
        config.percentiles()[1] = 0.2;
        builder.percentiles(0.3);
        assertThat(config.percentiles()).containsExactly(0.5, 0.9);
    }
}
