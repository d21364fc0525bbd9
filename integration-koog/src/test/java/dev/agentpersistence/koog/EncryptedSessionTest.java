package dev.agentpersistence.koog;

import static org.assertj.core.api.Assertions.assertThat;

import ai.koog.agents.snapshot.providers.file.JVMFilePersistenceStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.tck.StorageDumps;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With encryption on, a dump of the store a Koog agent wrote to holds none of its conversation in plain text, while
 * Koog's own file provider stores all of it readable; the encrypted session still resumes.
 */
class EncryptedSessionTest {
    private static final String SECRET = "merger with Qx7Corp at 41 EUR a share";
    private static final String KEY =
            Base64.getEncoder().encodeToString("koog session encryption key 32b!".getBytes(StandardCharsets.US_ASCII));

    @TempDir
    Path dir;

    @Test
    void aDumpOfTheEncryptedStoreShowsNoMessageText() throws Exception {
        var config = ProviderConfig.of(Map.of(
                "agent.persistence.provider",
                "file",
                "agent.persistence.file.dir",
                dir.resolve("ours").toString(),
                "agent.persistence.encryption.keys",
                "k1:" + KEY));
        String output;
        try (var provider = PersistenceStorageProviders.load(config)) {
            output = WriterAgent.create(KoogCheckpointStorage.of(provider), new ScriptedExecutor())
                    .run(SECRET, "board");
            assertThat(provider.getCheckpoints("@koog/board")).hasSize(4);
        }
        WriterAgent.create(new JVMFilePersistenceStorageProvider(dir.resolve("koog")), new ScriptedExecutor())
                .run(SECRET, "board");

        String ours = new String(StorageDumps.directory(dir.resolve("ours")), StandardCharsets.ISO_8859_1);
        String koogs = new String(StorageDumps.directory(dir.resolve("koog")), StandardCharsets.UTF_8);
        assertThat(koogs).as("Koog's own file provider, for contrast").contains(SECRET, "You write short reports.");
        assertThat(ours)
                .doesNotContain(
                        SECRET, "Qx7Corp", "You write short reports.", output, "scripted-model", "writer/writer/plan");

        try (var reopened = PersistenceStorageProviders.load(config)) {
            var latest = KoogCheckpointStorage.of(reopened)
                    .getLatestCheckpointAsync("board", data -> data.getGraphProperties() != null)
                    .get();
            assertThat(latest.getMessageHistory().get(1).textContent()).isEqualTo("plan: " + SECRET);
        }
    }
}
