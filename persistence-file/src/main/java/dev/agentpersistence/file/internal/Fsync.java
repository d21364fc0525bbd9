package dev.agentpersistence.file.internal;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Forces written data and directory entries to stable storage. */
public interface Fsync {

    /**
     * Forces the content of an open file and the metadata needed to read it back (its size), like {@code fdatasync}:
     * the files written here are new and read only by name, so their times need not be forced. The name is made durable
     * by {@link #directory(Path)}.
     */
    void file(FileChannel channel, Path path) throws IOException;

    /** Forces the entries of a directory (new, renamed and removed names). */
    void directory(Path directory) throws IOException;

    /** The operating system's {@code fsync}. Windows cannot open directories, so there directories are not forced. */
    static Fsync system() {
        return SystemFsync.INSTANCE;
    }

    /** Forces nothing: faster, but a power loss may lose or truncate recent saves. */
    static Fsync none() {
        return NoFsync.INSTANCE;
    }

    /** {@link Fsync#system()}. */
    enum SystemFsync implements Fsync {
        INSTANCE;

        private static final boolean WINDOWS = File.separatorChar == '\\';

        @Override
        public void file(FileChannel channel, Path path) throws IOException {
            channel.force(false);
        }

        @Override
        public void directory(Path directory) throws IOException {
            if (WINDOWS) {
                return;
            }
            try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
                channel.force(true);
            }
        }
    }

    /** {@link Fsync#none()}. */
    enum NoFsync implements Fsync {
        INSTANCE;

        @Override
        public void file(FileChannel channel, Path path) {}

        @Override
        public void directory(Path directory) {}
    }
}
