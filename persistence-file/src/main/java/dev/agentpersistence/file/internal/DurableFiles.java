package dev.agentpersistence.file.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The file operations the layout is built from: write-and-fsync a temporary file, publish it under a new name that must
 * not exist yet (a hard link, which fails atomically when the name is taken, also between processes), fsync
 * directories.
 */
public final class DurableFiles {
    private static final FileSystem DEFAULT_FILE_SYSTEM = FileSystems.getDefault();

    private final Fsync fsync;

    public DurableFiles(Fsync fsync) {
        this.fsync = Objects.requireNonNull(fsync, "fsync");
    }

    /** Writes {@code content} to a new temporary file in {@code directory} and forces it to disk. */
    public Path writeTemp(Path directory, byte[] content) throws IOException {
        OpenTemp temp = createTemp(directory, content);
        try (temp) {
            temp.force();
        } catch (IOException | RuntimeException e) {
            deleteQuietly(temp.path());
            throw e;
        }
        return temp.path();
    }

    /**
     * Writes {@code content} to a new temporary file in {@code directory} and leaves it open and not yet forced (see
     * {@link OpenTemp}). A failure removes the file.
     */
    public OpenTemp createTemp(Path directory, byte[] content) throws IOException {
        Path temp = directory.resolve(WriterProcess.newTempName());
        FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            ByteBuffer buffer = ByteBuffer.wrap(content);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            return new OpenTemp(temp, channel);
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            deleteQuietly(temp);
            throw e;
        }
    }

    /**
     * A temporary file that is written but still open and not yet forced: a save links it under a name readers do not
     * trust yet (its id reservation) and forces it afterwards, before publishing. On a journaling file system the
     * reservation's directory entry then reaches the disk with the data, and forcing that directory next costs almost
     * nothing. Closing does not delete the file.
     */
    public final class OpenTemp implements AutoCloseable {
        private final Path path;
        private final FileChannel channel;

        private OpenTemp(Path path, FileChannel channel) {
            this.path = path;
            this.channel = channel;
        }

        /** The file's path. */
        public Path path() {
            return path;
        }

        /** Forces the content to disk (with the size needed to read it back). */
        public void force() throws IOException {
            fsync.file(channel, path);
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException | RuntimeException ignored) {
            // the write failed already; that is the error to report
        }
    }

    /**
     * Creates {@code target} holding {@code content} (not forced to disk), unless it exists. A concurrent reader sees
     * no file, a prefix of {@code content}, or all of it — so only for content whose prefixes are recognisably
     * incomplete (the head file, {@link AgentHead}); never for checkpoints. A failure removes the partial file.
     *
     * @return {@code false} when {@code target} already existed (it is left as it was)
     */
    public boolean createWhole(Path target, byte[] content) throws IOException {
        FileChannel channel;
        try {
            channel = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (FileAlreadyExistsException e) {
            return false;
        }
        try (channel) {
            ByteBuffer buffer = ByteBuffer.wrap(content);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        } catch (IOException | RuntimeException e) {
            deleteQuietly(target);
            throw e;
        }
        return true;
    }

    /**
     * Makes {@code existing} also reachable as {@code target}, unless {@code target} exists.
     *
     * @return {@code false} when {@code target} already existed (nothing changed)
     */
    public boolean linkIfAbsent(Path target, Path existing) throws IOException {
        try {
            Files.createLink(target, existing);
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (UnsupportedOperationException e) {
            throw new IOException("the file system does not support hard links, which the file provider needs", e);
        }
    }

    /** Creates {@code directory} when missing, making its entry in the parent durable. */
    public void ensureDirectory(Path directory) throws IOException {
        if (Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            Files.createDirectory(directory);
            fsync.directory(directory.getParent());
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
                throw e;
            }
        }
    }

    /** Forces the content of an open file to disk (with its size), like {@code fdatasync}. */
    public void force(FileChannel channel, Path path) throws IOException {
        fsync.file(channel, path);
    }

    /** Forces the entries of {@code directory}. */
    public void syncDirectory(Path directory) throws IOException {
        fsync.directory(directory);
    }

    /** Deletes {@code path} if it exists; {@code true} when this call removed it. */
    public boolean deleteIfExists(Path path) throws IOException {
        if (path.getFileSystem() == DEFAULT_FILE_SYSTEM && path.toFile().delete()) {
            return true; // one unlink; Files.deleteIfExists first reads the attributes (a second system call)
        }
        return Files.deleteIfExists(path); // missing: false; otherwise it raises the actual error
    }

    /** Deletes {@code path}, ignoring every failure; for clean-up after another error. */
    public void deleteQuietly(Path path) {
        try {
            deleteIfExists(path);
        } catch (IOException | RuntimeException ignored) {
            // best effort: a stray temporary file is ignored by readers and swept later
        }
    }

    /** The attributes of {@code path} without following links; empty when it does not exist. */
    public Optional<BasicFileAttributes> attributes(Path path) throws IOException {
        try {
            return Optional.of(Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /**
     * The temporary file in {@code directory} that is the same file as {@code entry}: the name the writer holding a
     * reservation keeps until it has published; empty when there is none.
     */
    public Optional<Path> tempNameOf(Path entry, Path directory) throws IOException {
        try (DirectoryStream<Path> temps = Files.newDirectoryStream(
                directory, path -> path.getFileName().toString().startsWith(FileNames.TEMP_PREFIX))) {
            for (Path temp : temps) {
                if (sameFile(entry, temp)) {
                    return Optional.of(temp);
                }
            }
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
        return Optional.empty();
    }

    /** Whether both paths name the same file (hard links of one another); {@code false} when either is missing. */
    public boolean sameFile(Path a, Path b) throws IOException {
        try {
            return Files.isSameFile(a, b);
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    /** How many names the file has, where the file system tells (POSIX); empty elsewhere or when missing. */
    public OptionalInt linkCount(Path path) {
        try {
            Object count = Files.getAttribute(path, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
            return count instanceof Integer n ? OptionalInt.of(n) : OptionalInt.empty();
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return OptionalInt.empty();
        }
    }

    /**
     * Removes the file named {@code entry} only if it is still the file described by {@code seen}: renames it to a
     * unique trash name (atomic; only one caller gets it), checks it is the same file, and either deletes it or puts it
     * back.
     *
     * @return {@code true} when this call removed exactly that file
     */
    public boolean removeIfUnchanged(Path entry, BasicFileAttributes seen, Path trashDirectory) throws IOException {
        Path trash = trashDirectory.resolve(FileNames.TRASH_PREFIX + WriterProcess.unique());
        try {
            Files.move(entry, trash, StandardCopyOption.ATOMIC_MOVE);
        } catch (NoSuchFileException e) {
            return false;
        }
        var now = attributes(trash);
        if (now.isPresent() && sameIdentity(seen, now.get())) {
            deleteIfExists(trash);
            syncDirectory(entry.getParent());
            return true;
        }
        if (now.isPresent()) {
            linkIfAbsent(entry, trash); // not ours to remove: put it back unless its name was taken again
        }
        deleteQuietly(trash);
        return false;
    }

    private static boolean sameIdentity(BasicFileAttributes a, BasicFileAttributes b) {
        if (a.fileKey() != null && b.fileKey() != null) {
            return a.fileKey().equals(b.fileKey());
        }
        return a.lastModifiedTime().equals(b.lastModifiedTime())
                && a.size() == b.size()
                && a.creationTime().equals(b.creationTime());
    }
}
