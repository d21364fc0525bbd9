package dev.agentpersistence.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import dev.agentpersistence.storage.StorageSettings;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** No read returns a body over the maximum checkpoint size: the scripts check its length first. */
class RedisBoundedReadTest {

    @AfterAll
    static void removeKeys() {
        if (SharedRedis.answers(SharedRedis.uri())) {
            SharedRedis.deleteKeys(SharedRedis.uri(), SharedRedis.RUN_PREFIX);
        }
    }

    private static AgentCheckpoint checkpoint(long version, String text) {
        return AgentCheckpoint.builder()
                .checkpointId("cp-" + version)
                .agentId("agent")
                .version(version)
                .createdAt(Instant.parse("2026-11-24T00:00:00Z").plusSeconds(version))
                .nodeId("n")
                .message(Message.user(text).withId("m-" + version))
                .build();
    }

    @Test
    void aBodyOverTheMaximumIsRefusedWithItsKeyAndTheOthersStayReadable() {
        var config = RedisStorageConfig.custom()
                .uri(SharedRedis.uri())
                .keyPrefix(SharedRedis.uniquePrefix())
                .build();
        var random = new Random(7);
        var text = new StringBuilder();
        for (int i = 0; i < 3 << 20; i++) {
            text.append((char) ('!' + random.nextInt(90))); // hardly compressible: about 3 MiB stored
        }
        try (var writer = RedisStorage.builder(config).build();
                var reader = RedisStorage.builder(config)
                        .settings(StorageSettings.custom()
                                .maxCheckpointSize(1 << 20)
                                .build())
                        .build()) {
            writer.saveCheckpoint("agent", checkpoint(0, "small"));
            writer.saveCheckpoint("agent", checkpoint(1, text.toString()));
            writer.saveCheckpoint("agent", checkpoint(2, "small again"));
            for (var read : new Runnable[] {
                () -> reader.getCheckpoint("agent", "cp-1"),
                () -> reader.getCheckpoints("agent"),
                () -> reader.getLatestCheckpoint(
                        "agent", CheckpointFilter.builder().maxVersion(1L).build())
            }) {
                assertThatThrownBy(read::run)
                        .isInstanceOfSatisfying(
                                CorruptCheckpointException.class,
                                e -> assertThat(e.agentId()).isEqualTo("agent"))
                        .hasMessageContaining("1048576")
                        .hasMessageContaining(":b field 0000000000000000001");
            }
            assertThat(reader.getLatestCheckpoint("agent")).contains(checkpoint(2, "small again"));
            assertThat(reader.getCheckpoints(
                            "agent", CheckpointFilter.builder().maxVersion(0L).build()))
                    .containsExactly(checkpoint(0, "small"));
        }
    }
}
