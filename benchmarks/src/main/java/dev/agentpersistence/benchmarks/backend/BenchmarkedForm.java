package dev.agentpersistence.benchmarks.backend;

import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.codec.CodecSettings;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageSettings;

/**
 * How the benchmarked providers turn checkpoints into bytes: the codec every provider gets when it is loaded through
 * discovery, from the {@code agent.persistence.*} codec settings of the environment and system properties
 * ({@code CodecSettings}); with none set, the default a user runs (JSON, a CRC32C checksum, LZ4 compression of
 * documents from 4 KiB). The raw baselines write the same bytes.
 */
public final class BenchmarkedForm {
    private static final CheckpointCodec CODEC = CodecSettings.codec(ProviderConfig.fromEnvironment());

    private BenchmarkedForm() {}

    /** The default codec; immutable and thread-safe. */
    public static CheckpointCodec codec() {
        return CODEC;
    }

    /** What the benchmarked providers write: the environment's settings with incremental history on or off. */
    public static StorageSettings settings(boolean incremental) {
        return StorageSettings.from(StorageSettings.from(ProviderConfig.fromEnvironment()))
                .incrementalHistory(incremental)
                .build();
    }
}
