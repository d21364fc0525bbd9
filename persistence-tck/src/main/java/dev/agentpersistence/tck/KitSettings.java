package dev.agentpersistence.tck;

import dev.agentpersistence.codec.DocumentLayers;
import dev.agentpersistence.codec.EncryptionKeys;
import dev.agentpersistence.history.IncrementalHistoryConfig;
import dev.agentpersistence.storage.StorageSettings;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Write settings for a provider's second kit run: every layer on, so the whole kit also runs through checksums,
 * compression of every document, encryption and incremental history with small blocks (segments from the fourth message
 * on).
 */
public final class KitSettings {
    /** A fixed 32-byte test key; never use it for real data. */
    private static final byte[] TEST_KEY = "agent-persistence kit test key!!".getBytes(StandardCharsets.US_ASCII);

    private KitSettings() {}

    /**
     * Checksum, compression from 0 bytes, AES-256-GCM with key id {@code kit-k1}, incremental history in blocks of 4.
     */
    public static StorageSettings everyLayer() {
        return StorageSettings.custom()
                .layers(DocumentLayers.custom()
                        .checksum(true)
                        .compression(true)
                        .compressionMinSize(0)
                        .encryption(
                                EncryptionKeys.custom().key("kit-k1", TEST_KEY).build())
                        .build())
                .incrementalHistory(true)
                .history(IncrementalHistoryConfig.custom()
                        .blockSize(4)
                        .tierSizes(List.of(64, 16))
                        .build())
                .build();
    }
}
