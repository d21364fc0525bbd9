package dev.agentpersistence.benchmarks.backend;

import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.codec.CodecSettings;
import dev.agentpersistence.spi.ProviderConfig;

/**
 * How the benchmarked providers turn checkpoints into bytes: the codec every provider gets when it is
 * loaded through discovery with no settings (JSON, a CRC32C checksum, deflate compression of documents
 * from 4 KiB), so the numbers are those of the default a user runs. The raw baselines write the same bytes.
 */
public final class StoredForm {
    private static final CheckpointCodec CODEC = CodecSettings.codec(ProviderConfig.empty());

    private StoredForm() {
    }

    /** The default codec; immutable and thread-safe. */
    public static CheckpointCodec codec() {
        return CODEC;
    }
}
