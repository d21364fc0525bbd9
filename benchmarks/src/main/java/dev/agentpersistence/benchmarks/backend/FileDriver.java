package dev.agentpersistence.benchmarks.backend;

import dev.agentpersistence.benchmarks.raw.RawFileStore;
import dev.agentpersistence.benchmarks.raw.RawStore;
import dev.agentpersistence.file.FileStorage;
import dev.agentpersistence.file.FileStorageConfig;
import dev.agentpersistence.storage.StorageShell;
import java.nio.file.Path;

/**
 * The file provider with fsync on (its default) or off, keeping agents as journals (its default) or as one file per
 * checkpoint; the raw baseline writes one file per save ({@code FileChannel.write} then {@code force}, when fsync is
 * on) and reads it with {@code Files.readAllBytes}.
 */
final class FileDriver implements BackendDriver {
    private final boolean fsync;
    private final boolean journal;

    FileDriver(boolean fsync, boolean journal) {
        this.fsync = fsync;
        this.journal = journal;
    }

    @Override
    public StorageShell.Builder builder(BenchSettings settings, String namespace, boolean bulk, boolean incremental) {
        return FileStorage.builder(FileStorageConfig.custom()
                        .directory(directory(settings, namespace))
                        .fsync(fsync && !bulk)
                        .journal(journal)
                        .build())
                .settings(BenchmarkedForm.settings(incremental));
    }

    @Override
    public RawStore openRaw(BenchSettings settings, String namespace) {
        return new RawFileStore(settings.runDir().resolve(name() + "-raw-" + namespace), fsync);
    }

    @Override
    public long bytesStored(BenchSettings settings, String namespace) {
        return Directories.size(directory(settings, namespace));
    }

    @Override
    public void cleanUp(BenchSettings settings) {
        Directories.deleteRecursively(settings.runDir());
    }

    private Path directory(BenchSettings settings, String namespace) {
        return settings.runDir().resolve(name() + "-" + namespace);
    }

    private String name() {
        return (fsync ? "file" : "file-nofsync") + (journal ? "" : "-per-checkpoint");
    }
}
