package dev.agentpersistence.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.ContentPart;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import dev.agentpersistence.StorageConfigurationException;
import dev.agentpersistence.backend.BlobArea;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.backend.StoredForm;
import dev.agentpersistence.inmemory.internal.InMemoryStorageBackend;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.Checkpoints;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Parts by reference kept in another store ({@code blob-store}), and what a reader without it gets. */
class InMemoryBlobStoreTest {

    private static Message withImage(byte[] image) {
        return new Message(
                "m0",
                Message.Role.USER,
                "",
                List.of(ContentPart.bytes(ContentPart.MediaKind.IMAGE, image, "image/png")),
                null,
                Map.of());
    }

    @Test
    void blobsGoToTheBlobStoreAndAReaderWithoutItGetsATypedError() {
        byte[] image = new byte[100_000];
        new Random(9).nextBytes(image);
        var backend = new InMemoryStorageBackend(Clock.systemUTC());
        var blobStore = InMemoryStorage.builder().build();
        var checkpoint = Checkpoints.builder("agent", 0)
                .messageHistory(List.of(withImage(image)))
                .build();
        try (var main = StorageShell.builder(backend).blobStore(blobStore).build();
                var withoutBlobStore = StorageShell.builder(backend.share()).build()) {
            main.saveCheckpoint("agent", checkpoint);
            assertThat(main.getCheckpoints("agent")).containsExactly(checkpoint);
            BlobArea area = main.storedForm().flatMap(StoredForm::blobArea).orElseThrow();
            assertThat(area.segments().listSegments(area.agentId()))
                    .extracting(SegmentInfo::segmentId)
                    .singleElement()
                    .asString()
                    .startsWith("blob-");
            BlobArea ownArea =
                    withoutBlobStore.storedForm().flatMap(StoredForm::blobArea).orElseThrow();
            assertThat(ownArea.segments().listSegments(ownArea.agentId())).isEmpty();
            assertThatThrownBy(() -> withoutBlobStore.getCheckpoints("agent"))
                    .isInstanceOf(CorruptCheckpointException.class)
                    .hasMessageContaining("blob-")
                    .hasMessageContaining("is missing");
        }
        assertThatThrownBy(() -> blobStore.getCheckpoints("agent"))
                .as("closed with the shell")
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anUnknownBlobStoreIsAConfigurationError() {
        var config = ProviderConfig.of(
                Map.of("agent.persistence.provider", "inmemory", "agent.persistence.blob-store", "nowhere:at-all"));
        assertThatThrownBy(() -> PersistenceStorageProviders.load(config))
                .isInstanceOf(StorageConfigurationException.class)
                .hasMessageContaining("agent.persistence.blob-store");
    }
}
