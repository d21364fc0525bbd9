package dev.agentpersistence.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code file:<dir>} names this provider, declared by its factory. */
class FileStorageUriTest {
    @Test
    void fileTakesARelativeOrAbsolutePath() {
        var file = StorageUri.parse("file:target/cp", ProviderConfig.empty());
        assertThat(file.provider()).isEqualTo("file");
        Path dir = Path.of(file.config().get("agent.persistence.file.dir").orElseThrow());
        assertThat(dir.isAbsolute()).isTrue();
        assertThat(dir.endsWith(Path.of("target", "cp"))).as("%s", dir).isTrue();
        assertThat(StorageUri.parse("file:///tmp/cp", ProviderConfig.empty())
                        .config()
                        .get("agent.persistence.file.dir"))
                .contains("/tmp/cp");
        assertThatThrownBy(() -> StorageUri.parse("file:", ProviderConfig.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a path");
    }
}
