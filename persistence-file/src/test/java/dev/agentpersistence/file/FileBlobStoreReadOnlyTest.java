package dev.agentpersistence.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.Message;
import dev.agentpersistence.ReadOnlyStorageException;
import dev.agentpersistence.StorageNotFoundException;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.tck.Checkpoints;
import dev.agentpersistence.tck.StorageDumps;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read-only store whose parts by reference live in another store ({@code blob-store}) opens that store read-only too:
 * it reads the blobs, writes nothing to either directory, and creates neither.
 */
class FileBlobStoreReadOnlyTest {
    @TempDir
    Path root;

    @Test
    void aReadOnlyStoreReadsItsBlobsAndChangesNeitherDirectory() throws Exception {
        Path main = root.resolve("main");
        Path blobs = root.resolve("blobs");
        AgentCheckpoint checkpoint = withImage();
        try (var writer = PersistenceStorageProviders.load(config(main, blobs, false))) {
            writer.saveCheckpoint("agent", checkpoint);
        }
        assertThat(StorageDumps.directory(blobs))
                .as("the image went to the blob store")
                .hasSizeGreaterThan(100_000);
        byte[] mainBefore = StorageDumps.directory(main);
        byte[] blobsBefore = StorageDumps.directory(blobs);

        try (var reader = PersistenceStorageProviders.load(config(main, blobs, true))) {
            assertThat(reader.getLatestCheckpoint("agent")).contains(checkpoint);
            assertThatThrownBy(() -> reader.saveCheckpoint("agent", Checkpoints.simple("agent", 1)))
                    .isInstanceOf(ReadOnlyStorageException.class);
        }

        assertThat(StorageDumps.directory(main)).isEqualTo(mainBefore);
        assertThat(StorageDumps.directory(blobs)).isEqualTo(blobsBefore);
    }

    @Test
    void aReadOnlyStoreWhoseBlobStoreIsMissingCreatesNothing() throws Exception {
        Path main = root.resolve("main");
        try (var writer = PersistenceStorageProviders.load(config(main, root.resolve("blobs"), false))) {
            writer.saveCheckpoint("agent", withImage());
        }
        Path missing = root.resolve("no-blobs-here");

        assertThatThrownBy(() -> PersistenceStorageProviders.load(config(main, missing, true)))
                .isInstanceOf(StorageNotFoundException.class);
        assertThat(missing).doesNotExist();
    }

    private static ProviderConfig config(Path main, Path blobs, boolean readOnly) {
        var values = new HashMap<String, String>();
        values.put("agent.persistence.provider", FileStorageProviderFactory.NAME);
        values.put(FileStorageConfig.DIRECTORY.key(), main.toString());
        values.put("agent.persistence.blob-store", "file:" + blobs);
        values.put("agent.persistence.read-only", String.valueOf(readOnly));
        return ProviderConfig.of(values);
    }

    private static AgentCheckpoint withImage() {
        byte[] image = new byte[200_000];
        new Random(7).nextBytes(image);
        var message = new Message(
                "m0",
                Message.Role.USER,
                "",
                List.of(ContentPart.bytes(ContentPart.MediaKind.IMAGE, image, "image/png")),
                null,
                Map.of());
        return Checkpoints.builder("agent", 0).messageHistory(List.of(message)).build();
    }
}
