package dev.agentpersistence.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.spi.ProviderConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The examples' additions to {@code StorageUri} (whose forms {@code StorageUriTest} covers). */
class StorageSelectionTest {
    private static final ProviderConfig NONE = ProviderConfig.empty();

    @Test
    void jsonLinesTakesAPathAndTheOtherFormsAreStorageUris() {
        var jsonl = StorageSelection.parse("jsonl:/tmp/x", NONE);
        assertThat(jsonl.provider()).isEqualTo("jsonl");
        assertThat(jsonl.config().get(ProviderConfig.PROVIDER)).contains("jsonl");
        assertThat(jsonl.config().get("agent.persistence.jsonl.dir")).contains("/tmp/x");

        var redis = StorageSelection.parse("redis://:pw@cache:6380/2", NONE);
        assertThat(redis.provider()).isEqualTo("redis");
        assertThat(redis.description()).doesNotContain("pw");
        assertThatThrownBy(() -> StorageSelection.parse("mongodb://x", NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jdbc:<url>")
                .hasMessageContaining("jsonl:<dir>");
    }

    @Test
    void openingSqliteCreatesTheDatabaseDirectoryAndOpeningJsonLinesFindsTheCustomProvider(@TempDir Path dir) {
        try (var sqlite =
                StorageSelection.sqlite(dir.resolve("nested/deeper/cp.db")).open()) {
            assertThat(sqlite.getCheckpoints("agent")).isEmpty();
        }
        assertThat(Files.isDirectory(dir.resolve("nested/deeper"))).isTrue();
        try (var jsonl =
                StorageSelection.parse("jsonl:" + dir.resolve("jsonl"), NONE).open()) {
            assertThat(jsonl).isInstanceOf(dev.agentpersistence.storage.StorageShell.class);
        }
    }
}
