package dev.agentpersistence.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.s3.internal.KeyLayout;
import dev.agentpersistence.s3.internal.KeyParts;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.Checkpoints;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The requests a save or latest sends concurrently: latest reads the body it found last time together with the pointer
 * and uses it only while the pointer still names it; a save whose id claim fails while its index entry and pointer
 * raise were in flight hides nothing.
 */
class S3OverlappedRequestsTest {
    private static final String PREFIX = "app";
    private static final KeyLayout LAYOUT = new KeyLayout(PREFIX);

    @RegisterExtension
    static final S3ProxyExtension S3 = new S3ProxyExtension();

    @RegisterExtension
    final LoggedBucket s3 = new LoggedBucket(S3);

    private StorageShell reader;
    private StorageShell writer;

    @BeforeEach
    void setUp() {
        reader = s3.open(PREFIX);
        writer = S3Storage.builder(
                        S3.server().config(s3.bucket()).prefix(PREFIX).build())
                .build();
    }

    @AfterEach
    void tearDown() {
        writer.close();
    }

    private Optional<Long> latest() {
        return reader.getLatestCheckpoint("agent").map(AgentCheckpoint::version);
    }

    private void save(long... versions) {
        for (long version : versions) {
            writer.saveCheckpoint("agent", Checkpoints.simple("agent", version));
        }
    }

    @Test
    void latestReadsTheBodyFoundLastTimeWithThePointerAndDropsItOnceThePointerMoved() {
        save(0, 1, 2);
        assertThat(latest()).contains(2L);
        assertThat(latest()).contains(2L);
        assertThat(s3.log().take()).containsExactly("GetObject", "GetObject", "GetObject", "GetObject");

        save(3);
        assertThat(latest()).contains(3L);
        assertThat(s3.log().take())
                .containsExactly("GetObject", "GetObject", "GetObject"); // pointer, stale guess, new body
        assertThat(latest()).contains(3L);
        assertThat(s3.log().take()).containsExactly("GetObject", "GetObject");
    }

    @Test
    void aGuessedBodyIsNeverAnsweredWhenThePointerIsGoneDamagedOrAboveIt() {
        save(0, 1, 2);
        assertThat(latest()).contains(2L);

        writer.deleteCheckpoints("agent"); // removes the pointer and every body
        assertThat(latest()).isEmpty();
        save(0, 1);
        assertThat(latest()).contains(1L);

        S3.server()
                .admin()
                .putObject(
                        b -> b.bucket(s3.bucket()).key(LAYOUT.pointerKey(KeyParts.encode("agent"))),
                        RequestBody.fromString("garbage"));
        save(5);
        assertThat(latest()).contains(5L);

        writer.deleteCheckpointsBefore("agent", 6); // the pointer stays at 5, without a body
        assertThat(latest()).isEmpty();
        save(4);
        assertThat(latest()).contains(4L);
    }

    @Test
    void aSaveWhoseIdIsStoredAtAnotherVersionLeavesNothingThatHidesTheNewest() {
        save(0, 1);
        var clash = Checkpoints.builder("agent", 7)
                .checkpointId(Checkpoints.checkpointId(1))
                .build();
        assertThatThrownBy(() -> writer.saveCheckpoint("agent", clash)).isInstanceOf(PersistenceException.class);
        assertThat(latest()).contains(1L);
        assertThat(reader.getCheckpoints("agent"))
                .extracting(AgentCheckpoint::version)
                .containsExactly(0L, 1L);
        assertThat(reader.getCheckpoint("agent", Checkpoints.checkpointId(1)))
                .map(AgentCheckpoint::version)
                .contains(1L);

        save(2);
        assertThat(latest()).contains(2L);
        save(7);
        assertThat(latest()).contains(7L);
        assertThat(reader.getCheckpoints("agent"))
                .extracting(AgentCheckpoint::version)
                .containsExactly(0L, 1L, 2L, 7L);
    }
}
