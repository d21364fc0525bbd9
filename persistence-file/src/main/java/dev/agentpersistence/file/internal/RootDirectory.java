package dev.agentpersistence.file.internal;

import dev.agentpersistence.StorageConfigurationException;
import dev.agentpersistence.StorageNotFoundException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Opens the root directory of a file storage: creates it when missing, then checks that it is a directory this process
 * can read and write, by creating and removing a probe file in it.
 *
 * <p>What the process is not allowed to do (permissions, a read-only file system, a path through a regular file) is a
 * {@link StorageConfigurationException} naming the path and what is missing: retrying will not help. Other I/O errors
 * stay {@link dev.agentpersistence.StorageUnavailableException}s.
 */
final class RootDirectory {
    private static final String FIX = "; fix the permissions or choose another directory (agent.persistence.file.dir)";

    private RootDirectory() {}

    /**
     * Creates and checks {@code layout}'s root.
     *
     * @return the root's real path
     */
    static Path open(FileLayout layout, DurableFiles files) {
        Path root = layout.root();
        requireParentsAreDirectories(root);
        if (Files.exists(root) && !Files.isDirectory(root)) {
            throw unusable(root, "it exists but is not a directory", null);
        }
        try {
            layout.createRoot();
        } catch (AccessDeniedException | FileAlreadyExistsException | NotDirectoryException e) {
            throw unusable(root, "it cannot be created (" + describe(e) + ")", e);
        } catch (IOException e) {
            throw readOnly(e)
                    ? unusable(root, "it cannot be created on a read-only file system", e)
                    : IoFailures.unavailable("create the root directory", root, e);
        }
        if (!Files.isReadable(root)) {
            throw unusable(root, "it is not readable by this process", null);
        }
        if (!Files.isWritable(root)) {
            throw unusable(root, "it is not writable by this process", null);
        }
        probe(root, files);
        try {
            return root.toRealPath();
        } catch (IOException e) {
            throw IoFailures.unavailable("resolve the root directory", root, e);
        }
    }

    /**
     * Checks {@code layout}'s root for reading only, creating nothing.
     *
     * @return the root's real path
     * @throws dev.agentpersistence.StorageNotFoundException when the root does not exist
     */
    static Path openReadOnly(FileLayout layout) {
        Path root = layout.root();
        if (!Files.exists(root)) {
            throw new StorageNotFoundException("File storage directory " + root
                    + " does not exist; a read-only provider" + " creates none (check agent.persistence.file.dir)");
        }
        if (!Files.isDirectory(root)) {
            throw unusable(root, "it exists but is not a directory", null);
        }
        if (!Files.isReadable(root)) {
            throw unusable(root, "it is not readable by this process", null);
        }
        try {
            return root.toRealPath();
        } catch (IOException e) {
            throw IoFailures.unavailable("resolve the root directory", root, e);
        }
    }

    /** A path below a regular file cannot be created, whatever the permissions. */
    private static void requireParentsAreDirectories(Path root) {
        for (Path parent = root.getParent(); parent != null; parent = parent.getParent()) {
            if (Files.exists(parent)) {
                if (!Files.isDirectory(parent)) {
                    throw unusable(root, "its parent " + parent + " is a regular file, not a directory", null);
                }
                return;
            }
        }
    }

    /** Creates and removes a file, as every save does. */
    private static void probe(Path root, DurableFiles files) {
        Path probe = root.resolve(FileNames.TEMP_PREFIX + "probe-" + WriterProcess.unique());
        try {
            Files.createFile(probe);
            Files.delete(probe);
        } catch (AccessDeniedException e) {
            files.deleteQuietly(probe);
            throw unusable(root, "a file cannot be created and removed in it (" + describe(e) + ")", e);
        } catch (IOException e) {
            files.deleteQuietly(probe);
            throw readOnly(e)
                    ? unusable(root, "it is on a read-only file system", e)
                    : IoFailures.unavailable("create a file in the root directory", root, e);
        }
    }

    private static boolean readOnly(IOException e) {
        return e instanceof FileSystemException fs
                && fs.getReason() != null
                && fs.getReason().toLowerCase(Locale.ROOT).contains("read-only");
    }

    /** The exception's kind and reason, without repeating the path the message already names. */
    private static String describe(IOException e) {
        String reason = e instanceof FileSystemException fs ? fs.getReason() : e.getMessage();
        if (reason == null && e instanceof AccessDeniedException) {
            reason = "permission denied";
        }
        return e.getClass().getSimpleName() + (reason == null ? "" : ": " + reason);
    }

    private static StorageConfigurationException unusable(Path root, String problem, Exception cause) {
        return new StorageConfigurationException(
                "File storage directory " + root + " cannot be used: " + problem + FIX, cause);
    }
}
