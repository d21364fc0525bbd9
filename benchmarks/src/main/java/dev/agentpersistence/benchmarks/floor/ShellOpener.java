package dev.agentpersistence.benchmarks.floor;

import dev.agentpersistence.backend.BackendOpener;
import dev.agentpersistence.storage.StorageShell;
import java.lang.reflect.Field;
import java.util.Objects;

/**
 * The backend opener inside a {@link StorageShell.Builder}, so that a benchmark can build a shell over the same backend
 * wrapped ({@link CountingBackend}). The module builders ({@code JdbcStorage.builder(config)} and the others) hand the
 * shell an opener that their module keeps to itself, and the shell's builder has no way to wrap it; this reads the
 * builder's private {@code opener} field, which works on the class path and is for benchmarks only.
 */
final class ShellOpener {
    private ShellOpener() {}

    /** The opener {@code builder} opens its backend with. */
    static BackendOpener of(StorageShell.Builder builder) {
        Objects.requireNonNull(builder, "builder");
        try {
            Field opener = StorageShell.Builder.class.getDeclaredField("opener");
            opener.setAccessible(true);
            return (BackendOpener) opener.get(builder);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("Cannot read the backend opener of " + builder, e);
        }
    }
}
