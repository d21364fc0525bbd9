package dev.agentpersistence.adk;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.adk.artifacts.BaseArtifactService;
import com.google.genai.types.Part;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The artifact scenarios, with the same assertions for ADK's {@code InMemoryArtifactService} and for
 * {@link AgentPersistenceArtifactService} on each provider.
 */
abstract class ArtifactScenarios {
    protected final String app = "app-" + UUID.randomUUID();

    protected abstract BaseArtifactService artifacts();

    @Test
    void versionsCountFromZeroAndLoadByVersionOrLatest() {
        assertThat(artifacts()
                        .saveArtifact(app, "user", "s-1", "notes.txt", Part.fromText("v0"))
                        .blockingGet())
                .isZero();
        assertThat(artifacts()
                        .saveArtifact(app, "user", "s-1", "notes.txt", Part.fromText("v1"))
                        .blockingGet())
                .isEqualTo(1);
        assertThat(artifacts()
                        .loadArtifact(app, "user", "s-1", "notes.txt")
                        .blockingGet()
                        .text())
                .contains("v1");
        assertThat(artifacts()
                        .loadArtifact(app, "user", "s-1", "notes.txt", 0)
                        .blockingGet()
                        .text())
                .contains("v0");
        assertThat(artifacts().loadArtifact(app, "user", "s-1", "notes.txt", 7).blockingGet())
                .isNull();
        assertThat(artifacts().loadArtifact(app, "user", "s-1", "notes.txt", -1).blockingGet())
                .isNull();
        assertThat(artifacts().listVersions(app, "user", "s-1", "notes.txt").blockingGet())
                .containsExactly(0, 1);
    }

    @Test
    void bytesReadBackExactly() {
        byte[] bytes = new byte[4096];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        artifacts()
                .saveArtifact(app, "user", "s-1", "image.png", Part.fromBytes(bytes, "image/png"))
                .blockingGet();
        Part read = artifacts().loadArtifact(app, "user", "s-1", "image.png").blockingGet();
        assertThat(read.inlineData().orElseThrow().data().orElseThrow()).isEqualTo(bytes);
        assertThat(read.inlineData().orElseThrow().mimeType()).contains("image/png");
    }

    @Test
    void unknownArtifactsAreAbsent() {
        // keys first: ADK's InMemoryArtifactService lists a file name once a read has asked for it
        assertThat(artifacts()
                        .listArtifactKeys(app, "user", "s-1")
                        .blockingGet()
                        .filenames())
                .isEmpty();
        assertThat(artifacts().loadArtifact(app, "user", "s-1", "missing").blockingGet())
                .isNull();
        assertThat(artifacts().listVersions(app, "user", "s-1", "missing").blockingGet())
                .isEmpty();
    }

    @Test
    void keysAreListedPerSession() {
        artifacts()
                .saveArtifact(app, "user", "s-1", "a.txt", Part.fromText("a"))
                .blockingGet();
        artifacts()
                .saveArtifact(app, "user", "s-1", "b.txt", Part.fromText("b"))
                .blockingGet();
        artifacts()
                .saveArtifact(app, "user", "s-1", "b.txt", Part.fromText("b2"))
                .blockingGet();
        artifacts()
                .saveArtifact(app, "user", "s-2", "c.txt", Part.fromText("c"))
                .blockingGet();
        artifacts()
                .saveArtifact(app, "other", "s-1", "d.txt", Part.fromText("d"))
                .blockingGet();
        assertThat(artifacts()
                        .listArtifactKeys(app, "user", "s-1")
                        .blockingGet()
                        .filenames())
                .containsExactlyInAnyOrder("a.txt", "b.txt");
        assertThat(artifacts()
                        .listArtifactKeys(app, "user", "s-2")
                        .blockingGet()
                        .filenames())
                .containsExactly("c.txt");
        assertThat(artifacts().loadArtifact(app, "other", "s-1", "a.txt").blockingGet())
                .isNull();
    }

    @Test
    void deleteRemovesEveryVersionAndANewSaveStartsAgain() {
        artifacts()
                .saveArtifact(app, "user", "s-1", "a.txt", Part.fromText("a"))
                .blockingGet();
        artifacts()
                .saveArtifact(app, "user", "s-1", "a.txt", Part.fromText("a2"))
                .blockingGet();
        artifacts().deleteArtifact(app, "user", "s-1", "a.txt").blockingAwait();
        artifacts().deleteArtifact(app, "user", "s-1", "never.txt").blockingAwait();
        assertThat(artifacts()
                        .listArtifactKeys(app, "user", "s-1")
                        .blockingGet()
                        .filenames())
                .isEmpty();
        assertThat(artifacts().loadArtifact(app, "user", "s-1", "a.txt").blockingGet())
                .isNull();
        assertThat(artifacts().listVersions(app, "user", "s-1", "a.txt").blockingGet())
                .isEmpty();
        assertThat(artifacts()
                        .saveArtifact(app, "user", "s-1", "a.txt", Part.fromText("fresh"))
                        .blockingGet())
                .isZero();
    }

    @Test
    void saveAndReloadReturnsTheStoredPart() {
        Part reloaded = artifacts()
                .saveAndReloadArtifact(app, "user", "s-1", "r.txt", Part.fromText("round trip"))
                .blockingGet();
        assertThat(reloaded.text()).contains("round trip");
    }
}
