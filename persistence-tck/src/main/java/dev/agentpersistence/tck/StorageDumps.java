package dev.agentpersistence.tck;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Helpers for a kit test's {@code dumpStorage()} hook, which returns everything a storage holds at rest.
 *
 * <pre>{@code
 * @Override
 * protected byte[] dumpStorage() {
 *     return StorageDumps.directory(root);
 * }
 * }</pre>
 */
public final class StorageDumps {
    private StorageDumps() {}

    /** Every file under {@code root}, each as its path relative to the root followed by its bytes. */
    public static byte[] directory(Path root) {
        Objects.requireNonNull(root, "root");
        var out = new ByteArrayOutputStream();
        try (var files = Files.walk(root)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                out.writeBytes(root.relativize(file).toString().getBytes(StandardCharsets.UTF_8));
                out.writeBytes(Files.readAllBytes(file));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the storage under " + root, e);
        }
        return out.toByteArray();
    }
}
