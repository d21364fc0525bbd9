package dev.agentpersistence.pipeline;

import dev.agentpersistence.pipeline.internal.FileTrees;
import dev.agentpersistence.pipeline.internal.FileWorkspaceCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A pipeline state held in files: a directory the nodes edit (for example a markdown document several writer agents
 * fill in turn). Use it with {@link #codec(Path)}: a failed attempt's edits are rolled back on disk by copying the
 * directory back from a backup, and checkpoints hold the files' contents, so a resume in a new JVM puts them back.
 *
 * <p>Paths are relative to {@link #root()}, {@code /}-separated, and may not leave the root: an absolute path or one
 * whose {@code ..} segments climb out is refused with {@link IllegalArgumentException}. Symbolic links are never
 * followed: reading, writing or testing a path with a link on it (a link to a directory on the way, or the file itself
 * a link) throws {@link WorkspaceLinkException}, as does deleting below a link; deleting a link removes the link
 * itself. So nothing the workspace writes, reads or deletes is outside its root. Backups keep links as links, and
 * restoring one puts them back as links. Text is read and written as UTF-8. I/O errors are thrown as
 * {@link UncheckedIOException}.
 */
public final class FileWorkspace {
    private final Path root;

    private FileWorkspace(Path root) {
        this.root = root;
    }

    /** The workspace in {@code directory}, created when missing. */
    public static FileWorkspace at(Path directory) {
        Objects.requireNonNull(directory, "directory");
        Path root = directory.toAbsolutePath().normalize();
        try {
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create workspace directory " + root, e);
        }
        return new FileWorkspace(root);
    }

    /**
     * The state codec for the workspace in {@code directory}: backups copy the directory, the checkpoint form holds
     * every regular file's contents (empty directories are not kept), and decoding rewrites the directory to exactly
     * those files.
     */
    public static StateCodec<FileWorkspace> codec(Path directory) {
        return new FileWorkspaceCodec(at(directory));
    }

    /** The workspace directory (absolute, normalized). */
    public Path root() {
        return root;
    }

    /**
     * The absolute path of {@code relativePath}.
     *
     * @throws IllegalArgumentException when the path is absolute or leaves the workspace
     */
    public Path resolve(String relativePath) {
        Objects.requireNonNull(relativePath, "relativePath");
        if (relativePath.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("path must not contain NUL");
        }
        if (relativePath.isEmpty()) {
            throw new IllegalArgumentException("path must not be empty");
        }
        Path relative = root.getFileSystem().getPath(relativePath);
        Path resolved = root.resolve(relative).normalize();
        if (relative.isAbsolute() || !resolved.startsWith(root) || resolved.equals(root)) {
            throw new IllegalArgumentException(
                    "path '" + relativePath + "' is not a file inside the workspace " + root);
        }
        return resolved;
    }

    /**
     * The text of a file.
     *
     * @throws UncheckedIOException wrapping {@link NoSuchFileException} when the file does not exist
     */
    public String read(String relativePath) {
        Path file = withoutLinks(relativePath, true);
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** The text of a file, or empty when it does not exist. */
    public Optional<String> readIfExists(String relativePath) {
        return exists(relativePath) ? Optional.of(read(relativePath)) : Optional.empty();
    }

    /** Writes a file (replacing it atomically where the file system can), creating parent directories. */
    public void write(String relativePath, String text) {
        Objects.requireNonNull(text, "text");
        writeBytes(relativePath, text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Writes a file's bytes (replacing it atomically where the file system can), creating parent directories.
     *
     * @throws WorkspaceLinkException when a symbolic link lies on the path
     */
    public void writeBytes(String relativePath, byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        Path file = withoutLinks(relativePath, true);
        try {
            Files.createDirectories(file.getParent());
            requireInside(relativePath, file.getParent());
            Path temp = Files.createTempFile(file.getParent(), ".ws-", ".tmp");
            try {
                Files.write(temp, bytes);
                try {
                    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (java.nio.file.AtomicMoveNotSupportedException e) {
                    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(temp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** The bytes of a file. */
    public byte[] readBytes(String relativePath) {
        Path file = withoutLinks(relativePath, true);
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /**
     * Whether the file exists.
     *
     * @throws WorkspaceLinkException when a symbolic link lies on the path
     */
    public boolean exists(String relativePath) {
        return Files.isRegularFile(withoutLinks(relativePath, true), LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Deletes a file or directory tree without following links (a link is removed, not its target); a missing one is
     * fine.
     *
     * @throws WorkspaceLinkException when a symbolic link lies on the way to the path
     */
    public void delete(String relativePath) {
        Path path = withoutLinks(relativePath, false);
        try {
            if (Files.isDirectory(path.getParent(), LinkOption.NOFOLLOW_LINKS)) {
                requireInside(relativePath, path.getParent());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + path, e);
        }
        FileTrees.deleteTree(path);
    }

    /**
     * {@link #resolve(String)}, refusing a path with a symbolic link on it: each directory on the way and, when
     * {@code includingLast}, the path itself.
     */
    private Path withoutLinks(String relativePath, boolean includingLast) {
        Path path = resolve(relativePath);
        Path current = root;
        Path relative = root.relativize(path);
        for (int i = 0; i < relative.getNameCount(); i++) {
            current = current.resolve(relative.getName(i));
            boolean last = i == relative.getNameCount() - 1;
            if ((includingLast || !last) && Files.isSymbolicLink(current)) {
                throw new WorkspaceLinkException(relativePath, current, root);
            }
        }
        return path;
    }

    /** Checks that the existing directory {@code directory}, with every link resolved, is inside the root. */
    private void requireInside(String relativePath, Path directory) throws IOException {
        Path real = directory.toRealPath();
        if (!real.startsWith(root.toRealPath())) {
            throw new WorkspaceLinkException(relativePath, directory, root);
        }
    }

    /** The regular files of the workspace as relative paths, sorted. */
    public List<String> files() {
        return FileTrees.regularFiles(root);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof FileWorkspace that && root.equals(that.root);
    }

    @Override
    public int hashCode() {
        return root.hashCode();
    }

    @Override
    public String toString() {
        return "FileWorkspace[" + root + "]";
    }
}
