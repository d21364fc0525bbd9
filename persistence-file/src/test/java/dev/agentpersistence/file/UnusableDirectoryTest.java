package dev.agentpersistence.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentpersistence.StorageConfigurationException;
import dev.agentpersistence.StorageUnavailableException;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A root directory this process cannot use is a configuration error (not transient, so callers do not retry it) naming
 * the path and what is missing.
 */
class UnusableDirectoryTest {
    @TempDir
    Path sandbox;

    @Test
    void aRootBelowARegularFileIsAConfigurationError() throws Exception {
        Path file = Files.writeString(sandbox.resolve("a-file"), "x");
        Path root = file.resolve("checkpoints");

        assertThatThrownBy(() -> FileStorage.builder(root).build())
                .isInstanceOf(StorageConfigurationException.class)
                .isNotInstanceOf(StorageUnavailableException.class)
                .hasMessageContaining(root.toString())
                .hasMessageContaining("parent " + file + " is a regular file");
    }

    @Test
    void aRootThatIsAFileIsAConfigurationError() throws Exception {
        Path root = Files.writeString(sandbox.resolve("not-a-directory"), "x");

        assertThatThrownBy(() -> FileStorage.builder(root).build())
                .isInstanceOf(StorageConfigurationException.class)
                .hasMessageContaining(root.toString())
                .hasMessageContaining("is not a directory");
    }

    @Test
    void aReadOnlyDirectoryIsAConfigurationErrorNamingWhatIsMissing() throws Exception {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "needs POSIX permissions");
        Path locked = Files.createDirectory(sandbox.resolve("locked"));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-x------"));
        try {
            assumeTrue(
                    permissionsAreEnforced(locked),
                    "permissions are not enforced for this user (running as root?); the regular-file variant covers "
                            + "the check");

            assertThatThrownBy(() -> FileStorage.builder(locked).build())
                    .isInstanceOf(StorageConfigurationException.class)
                    .hasMessageContaining(locked.toString())
                    .hasMessageContaining("not writable");
            Path below = locked.resolve("checkpoints");
            assertThatThrownBy(() -> FileStorage.builder(below).build())
                    .isInstanceOf(StorageConfigurationException.class)
                    .hasMessageContaining(below.toString())
                    .hasMessageContaining("cannot be created");
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void aUsableRootLeavesNoProbeFileBehind() throws Exception {
        try (var provider = FileStorage.builder(sandbox.resolve("fresh")).build()) {
            assertThat(provider).isNotNull();
        }

        try (var entries = Files.list(sandbox.resolve("fresh"))) {
            assertThat(entries).isEmpty();
        }
    }

    /** Whether creating a file in {@code directory} (mode 0500) is refused, as it is for anyone but root. */
    private static boolean permissionsAreEnforced(Path directory) {
        try {
            Files.delete(Files.createFile(directory.resolve("permission-check")));
            return false;
        } catch (IOException expected) {
            return true;
        }
    }
}
