package dev.agentpersistence.benchmarks.floor;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.codec.CodecSettings;
import dev.agentpersistence.codec.DocumentLayers;
import dev.agentpersistence.codec.JsonCheckpointCodec;
import dev.agentpersistence.spi.ProviderConfig;
import java.util.Locale;
import java.util.Objects;

/**
 * The least a store could hold after a workload: the final conversation's JSON written once, compressed as the
 * benchmarked providers compress documents, plus {@value #PER_CHECKPOINT} bytes per checkpoint held. The JSON is that
 * of a checkpoint holding only the final history (ids, version, time and messages), as the benchmarked codec writes it
 * before its layers; the compression is the configured algorithm of {@link CodecSettings} (LZ4 by default) with its
 * header, without a checksum and whatever the document's size.
 *
 * @param jsonBytes the final conversation's JSON
 * @param compressedBytes that JSON compressed, or its length where the providers do not compress
 */
record StorageFloor(long jsonBytes, long compressedBytes) {
    /** What the floor allows for each checkpoint held. */
    static final int PER_CHECKPOINT = 200;

    /** The floor of the conversation {@code latest} holds. */
    static StorageFloor of(AgentCheckpoint latest) {
        Objects.requireNonNull(latest, "latest");
        ProviderConfig config = ProviderConfig.fromEnvironment();
        AgentCheckpoint history = AgentCheckpoint.builder()
                .checkpointId(latest.checkpointId())
                .agentId(latest.agentId())
                .version(latest.version())
                .createdAt(latest.createdAt())
                .messageHistory(latest.messageHistory())
                .build();
        byte[] json = JsonCheckpointCodec.writingFormat(CodecSettings.FORMAT_VERSION.read(config))
                .encode(history);
        DocumentLayers stored = CodecSettings.layers(config);
        DocumentLayers compression = DocumentLayers.custom()
                .checksum(false)
                .compression(stored.compresses())
                .compressionAlgorithm(stored.compressionAlgorithm())
                .compressionLevel(stored.compressionLevel())
                .compressionMinSize(0)
                .build();
        return new StorageFloor(json.length, compression.wrap(json).length);
    }

    /** The compression of the floor: the configured algorithm in lower case, or {@code none}. */
    static String compression() {
        DocumentLayers stored = CodecSettings.layers(ProviderConfig.fromEnvironment());
        return stored.compresses() ? stored.compressionAlgorithm().name().toLowerCase(Locale.ROOT) : "none";
    }

    /** The floor with {@code checkpoints} checkpoints held. */
    long bytes(long checkpoints) {
        return compressedBytes + PER_CHECKPOINT * checkpoints;
    }

    /** The floor and its two parts, such as {@code 243,456 (203,456 + 40,000)}. */
    String describe(long checkpoints) {
        return String.format(
                Locale.ROOT, "%,d (%,d + %,d)", bytes(checkpoints), compressedBytes, PER_CHECKPOINT * checkpoints);
    }
}
