package dev.agentpersistence.benchmarks.raw;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * One file per key: {@code FileChannel.write} and, with fsync, {@code force(false)} (fdatasync, as the file provider);
 * reads with {@code Files.readAllBytes}.
 */
public final class RawFileStore implements RawStore {
    private final Path directory;
    private final boolean fsync;

    public RawFileStore(Path directory, boolean fsync) {
        this.directory = directory;
        this.fsync = fsync;
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void write(String key, byte[] value) {
        try (FileChannel channel =
                FileChannel.open(directory.resolve(key), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.wrap(value);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            if (fsync) {
                channel.force(false);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public byte[] read(String key) {
        try {
            return Files.readAllBytes(directory.resolve(key));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void delete(List<String> keys) {
        try {
            for (String key : keys) {
                Files.deleteIfExists(directory.resolve(key));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        // holds no open files
    }
}
