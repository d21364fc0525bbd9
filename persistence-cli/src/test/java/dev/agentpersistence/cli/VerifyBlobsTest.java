package dev.agentpersistence.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.ContentPart;
import dev.agentpersistence.Message;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import dev.agentpersistence.tck.Checkpoints;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code verify} reads the parts a checkpoint stores by reference: a damaged or missing blob makes each checkpoint
 * referencing it unreadable, named with the blob, and a checkpoint without references stays readable.
 */
class VerifyBlobsTest {
    @TempDir
    Path directory;

    @Test
    void aDamagedBlobIsReportedForTheCheckpointsThatReferenceIt() throws Exception {
        String store = "file:" + directory;
        try (var provider = StorageUri.parse(store, ProviderConfig.empty()).open()) {
            var image = message("with-image", imageBytes());
            provider.saveCheckpoint(
                    "vision",
                    Checkpoints.builder("vision", 0)
                            .messageHistory(List.of(image))
                            .build());
            provider.saveCheckpoint(
                    "vision",
                    Checkpoints.builder("vision", 1)
                            .messageHistory(List.of(image, Message.assistant("a cat")))
                            .build());
            provider.saveCheckpoint("text", Checkpoints.simple("text", 0));
        }
        var clean = CliRun.of("verify", "--store", store);
        assertThat(clean.exitCode()).as("%s", clean).isZero();
        assertThat(clean.out()).contains("2 agents, 3 checkpoints readable, 0 unreadable");

        Path blob = onlyBlobFile();
        byte[] bytes = Files.readAllBytes(blob);
        bytes[bytes.length / 2] ^= 0x5a;
        Files.write(blob, bytes);

        var damaged = CliRun.of("verify", "--store", store);
        assertThat(damaged.exitCode()).as("%s", damaged).isEqualTo(ExitCode.PROBLEMS_FOUND);
        assertThat(damaged.out()).contains("1 checkpoints readable, 2 unreadable");
        assertThat(damaged.out().lines().filter(line -> line.startsWith("vision")))
                .hasSize(2)
                .allSatisfy(line -> assertThat(line).contains("blob-"));

        Files.delete(blob);
        var missing = CliRun.of("verify", "--json", "--store", store).json();
        assertThat(missing.get("unreadable")).hasSize(2);
        assertThat(missing.get("unreadable").get(0).get("problem").asText()).contains("missing");
    }

    private Path onlyBlobFile() throws Exception {
        try (Stream<Path> files = Files.walk(directory)) {
            List<Path> blobs = files.filter(Files::isRegularFile)
                    .filter(path -> path.toString().contains("blob-"))
                    .toList();
            assertThat(blobs).as("the blob files under %s", directory).hasSize(1);
            return blobs.get(0);
        }
    }

    private static byte[] imageBytes() {
        byte[] image = new byte[150_000];
        new Random(11).nextBytes(image);
        return image;
    }

    private static Message message(String id, byte[] image) {
        return new Message(
                id,
                Message.Role.USER,
                "",
                List.of(ContentPart.bytes(ContentPart.MediaKind.IMAGE, image, "image/png")),
                null,
                Map.of());
    }
}
