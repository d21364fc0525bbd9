package dev.agentpersistence.file.internal;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes temporary and trash files left by writers that crashed: files older than the grace
 * period, and at once the temporary files whose name records a writer process of this host that is
 * no longer running ({@link WriterProcess}). So a writer working in another process right now is
 * not disturbed. Readers ignore
 * these files anyway; sweeping only gives the space back.
 */
public final class StaleFileSweeper {
    private static final Logger LOG = LoggerFactory.getLogger(StaleFileSweeper.class);

    private final Path root;
    private final DurableFiles files;
    private final Clock clock;
    private final Duration gracePeriod;

    public StaleFileSweeper(Path root, DurableFiles files, Clock clock, Duration gracePeriod) {
        this.root = Objects.requireNonNull(root, "root");
        this.files = Objects.requireNonNull(files, "files");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.gracePeriod = Objects.requireNonNull(gracePeriod, "gracePeriod");
    }

    /** Sweeps every agent directory under the root; returns how many files were removed. */
    public int sweep() {
        Instant cutoff = clock.instant().minus(gracePeriod);
        int removed = 0;
        try (DirectoryStream<Path> agents = Files.newDirectoryStream(root)) {
            for (Path directory : agents) {
                if (Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
                    removed += sweep(directory, cutoff);
                }
            }
        } catch (NoSuchFileException e) {
            return 0;
        } catch (IOException e) {
            throw IoFailures.unavailable("clean up", root, e);
        } catch (DirectoryIteratorException e) {
            throw IoFailures.unavailable("clean up", root, e.getCause());
        }
        if (removed > 0) {
            LOG.info("Removed {} stale temporary files under {}", removed, root);
        }
        return removed;
    }

    private int sweep(Path directory, Instant cutoff) throws IOException {
        int removed = 0;
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory,
                path -> FileNames.isScratch(path.getFileName().toString()))) {
            for (Path file : stream) {
                var attributes = files.attributes(file);
                if (attributes.isPresent() && attributes.get().isRegularFile()
                        && (attributes.get().lastModifiedTime().toInstant().isBefore(cutoff) || writerDead(file))
                        && files.deleteIfExists(file)) {
                    removed++;
                }
            }
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
        return removed;
    }

    /** Whether {@code file} is a temporary file of a writer process of this host that has ended. */
    private static boolean writerDead(Path file) {
        return WriterProcess.ofTempName(file.getFileName().toString()).filter(WriterProcess::isKnownDead).isPresent();
    }
}
