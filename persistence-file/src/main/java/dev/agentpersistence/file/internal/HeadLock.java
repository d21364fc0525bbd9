package dev.agentpersistence.file.internal;

import dev.agentpersistence.StorageUnavailableException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Mutual exclusion for changing one agent's head ({@link AgentHead}), between threads, provider instances and
 * processes: an advisory lock ({@link FileChannel#tryLock()}) on {@code <agent>/.head.lock}, which also holds the
 * head's state. Held only while the head is read and rewritten (microseconds), never while a checkpoint is written;
 * readers of the latest checkpoint only try it when they rebuild the head, and never wait for it.
 *
 * <p>File locks belong to the whole JVM, and on POSIX systems closing <em>any</em> channel of the lock file releases
 * every lock the process holds on it — so a second provider instance in this JVM that merely opened and closed the file
 * would silently drop the first one's lock. Hence the whole open–lock–close span is also serialised inside the JVM, on
 * a monitor shared by every provider instance (and every copy of this class): the interned string naming the lock file
 * by the real path of the root. (It is the JVM's string pool, not state of this class: two instances over one root,
 * even loaded by different class loaders, find the same monitor.) An {@link OverlappingFileLockException} therefore
 * cannot arise from this module; it is treated as "busy" all the same.
 */
final class HeadLock {
    /** Longest wait for another process to release the lock. */
    static final Duration WAIT = Duration.ofSeconds(10);

    private static final String MONITOR_PREFIX = "dev.agentpersistence.file.head-lock:";

    /** Work done while holding the lock. */
    interface Action<T> {
        /**
         * Does the work; returns a result, never {@code null}.
         *
         * @param lockFile the locked lock file, open for reading and writing (it holds the head state)
         */
        T run(FileChannel lockFile) throws IOException;
    }

    private HeadLock() {}

    /**
     * Runs {@code action} holding the lock on {@code lockFile}, waiting for it up to {@link #WAIT}.
     *
     * @param realLockFile {@code lockFile} spelled from the real path of the root: the monitor's name
     * @throws StorageUnavailableException when another process held the lock for the whole wait
     */
    static <T> T withLock(Path lockFile, String realLockFile, Action<T> action) throws IOException {
        return run(lockFile, realLockFile, WAIT.toNanos(), action)
                .orElseThrow(() -> new StorageUnavailableException(
                        "File storage: the head lock " + lockFile + " was held by another process for more than "
                                + WAIT.toSeconds() + " s",
                        null));
    }

    /** Runs {@code action} holding the lock if it is free right now; empty when it is not. */
    static <T> Optional<T> ifFree(Path lockFile, String realLockFile, Action<T> action) throws IOException {
        return run(lockFile, realLockFile, 0, action);
    }

    private static <T> Optional<T> run(Path lockFile, String realLockFile, long waitNanos, Action<T> action)
            throws IOException {
        Object monitor = (MONITOR_PREFIX + realLockFile).intern();
        synchronized (monitor) {
            try (FileChannel channel = FileChannel.open(
                    lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                FileLock lock = acquire(channel, waitNanos);
                if (lock == null) {
                    return Optional.empty();
                }
                try {
                    return Optional.of(action.run(channel));
                } finally {
                    lock.release();
                }
            }
        }
    }

    private static FileLock acquire(FileChannel channel, long waitNanos) throws IOException {
        long deadline = System.nanoTime() + waitNanos;
        long pauseMillis = 1;
        while (true) {
            try {
                FileLock lock = channel.tryLock();
                if (lock != null) {
                    return lock;
                }
            } catch (OverlappingFileLockException busy) {
                // held through another channel of this JVM (see the class documentation): wait as for a process
            }
            if (System.nanoTime() - deadline >= 0) {
                return null;
            }
            try {
                TimeUnit.MILLISECONDS.sleep(pauseMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StorageUnavailableException("File storage: interrupted while waiting for the head lock", e);
            }
            pauseMillis = Math.min(pauseMillis * 2, 20);
        }
    }
}
