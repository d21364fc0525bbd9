package dev.agentpersistence.adk;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.adk.artifacts.BaseArtifactService;
import com.google.genai.types.Part;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The artifact scenarios plus user-scoped files, reopening and concurrent saves, on every provider of {@link AdkStore}.
 */
@ParameterizedClass
@EnumSource(AdkStore.class)
class StoredArtifactServiceTest extends ArtifactScenarios {
    private PersistenceStorageProvider<CheckpointFilter> provider;
    private AgentPersistenceArtifactService artifacts;

    @Parameter
    AdkStore store;

    @TempDir
    Path dir;

    private final String prefix = "adk-test-" + UUID.randomUUID() + ":";

    /** Opens a provider on the test's store; each call opens a new one on the same data (the heap: a new heap). */
    private PersistenceStorageProvider<CheckpointFilter> openProvider() {
        return store.open(dir, prefix);
    }

    /** Whether a second {@link #openProvider()} sees the first one's data. */
    private boolean reopenable() {
        return store.reopenable();
    }

    @BeforeEach
    void open() {
        provider = openProvider();
        artifacts = AgentPersistenceArtifactService.of(provider);
    }

    @AfterEach
    void close() throws Exception {
        provider.close();
    }

    @Override
    protected BaseArtifactService artifacts() {
        return artifacts;
    }

    @Test
    void userFilesAreSharedByTheUsersSessions() {
        artifacts
                .saveArtifact(app, "user", "s-1", "user:profile", Part.fromText("p0"))
                .blockingGet();
        assertThat(artifacts
                        .saveArtifact(app, "user", "s-2", "user:profile", Part.fromText("p1"))
                        .blockingGet())
                .isEqualTo(1);
        artifacts
                .saveArtifact(app, "user", "s-1", "local.txt", Part.fromText("l"))
                .blockingGet();
        assertThat(artifacts
                        .loadArtifact(app, "user", "s-3", "user:profile")
                        .blockingGet()
                        .text())
                .contains("p1");
        assertThat(artifacts.listArtifactKeys(app, "user", "s-2").blockingGet().filenames())
                .containsExactly("user:profile");
        assertThat(artifacts.listArtifactKeys(app, "user", "s-1").blockingGet().filenames())
                .containsExactly("local.txt", "user:profile");
        assertThat(artifacts.loadArtifact(app, "other", "s-1", "user:profile").blockingGet())
                .isNull();
    }

    @Test
    void artifactsSurviveAReopenedProvider() throws Exception {
        artifacts
                .saveArtifact(app, "u/x", "s/1", "dir/file%.txt", Part.fromText("kept"))
                .blockingGet();
        if (reopenable()) {
            provider.close();
            provider = openProvider();
        }
        artifacts = AgentPersistenceArtifactService.of(provider);
        assertThat(artifacts
                        .loadArtifact(app, "u/x", "s/1", "dir/file%.txt")
                        .blockingGet()
                        .text())
                .contains("kept");
        assertThat(artifacts.listArtifactKeys(app, "u/x", "s/1").blockingGet().filenames())
                .containsExactly("dir/file%.txt");
    }

    @Test
    void concurrentSavesEachGetTheirOwnVersion() throws Exception {
        var peer = reopenable() ? openProvider() : provider;
        var services = new AgentPersistenceArtifactService[] {artifacts, AgentPersistenceArtifactService.of(peer)};
        var barrier = new CyclicBarrier(2);
        var pool = Executors.newFixedThreadPool(2);
        var versions = new ArrayList<Integer>();
        try {
            var futures = new ArrayList<Future<java.util.List<Integer>>>();
            for (int w = 0; w < 2; w++) {
                var service = services[w];
                int writer = w;
                futures.add(pool.submit(() -> {
                    barrier.await(10, TimeUnit.SECONDS);
                    var mine = new ArrayList<Integer>();
                    for (int i = 0; i < 10; i++) {
                        mine.add(service.saveArtifact(app, "user", "s-1", "shared.txt", Part.fromText(writer + "-" + i))
                                .blockingGet());
                    }
                    return mine;
                }));
            }
            for (var future : futures) {
                versions.addAll(future.get(120, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
            if (peer != provider) {
                peer.close();
            }
        }
        assertThat(versions).doesNotHaveDuplicates().hasSize(20);
        assertThat(artifacts.listVersions(app, "user", "s-1", "shared.txt").blockingGet())
                .hasSize(20);
    }

    @Test
    void readingNeverListsAFile() {
        artifacts.loadArtifact(app, "user", "s-1", "asked.txt").blockingGet();
        artifacts.listVersions(app, "user", "s-1", "asked.txt").blockingGet();
        assertThat(artifacts.listArtifactKeys(app, "user", "s-1").blockingGet().filenames())
                .isEmpty();
    }
}
