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
 * Removes temporary and trash files left by writers that crashed: files older than the grace period, and at once the
 * temporary files whose name records a writer process of this host that is no longer running ({@link WriterProcess}).
 * So a writer working in another process right now is not disturbed. Readers ignore these files anyway; sweeping only
 * gives the space back.
 *
 * <p>The same listing checks each agent's head file ({@link AgentHead}): a trusted head that does not name the highest
 * checkpoint file — one put there by hand, or by a writer that does not keep the head (an older version of this module)
 * — is invalidated, so hand-made changes to a closed store are seen once a provider opens it.
 */
public final class StaleFileSweeper {

    private final Path root;
    private final DurableFiles files;
    private final Clock clock;
    private final Duration gracePeriod;
    private final FileLayout layout;
    private final AgentHead head;

    public StaleFileSweeper(FileLayout layout, DurableFiles files, Clock clock, Duration gracePeriod, AgentHead head) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.head = Objects.requireNonNull(head, "head");
        this.root = layout.root();
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
            log().info("Removed {} stale temporary files under {}", removed, root);
        }
        return removed;
    }

    private int sweep(Path directory, Instant cutoff) throws IOException {
        AgentPaths paths = layout.atDirectory(directory);
        AgentHead.Reading reading = head.read(paths);
        long[] highest = {HeadState.NONE};
        int removed = 0;
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, path -> {
            String name = path.getFileName().toString();
            FileNames.parseVersion(name).ifPresent(version -> highest[0] = Math.max(highest[0], version));
            return FileNames.isScratch(name);
        })) {
            for (Path file : stream) {
                var attributes = files.attributes(file);
                if (attributes.isPresent()
                        && attributes.get().isRegularFile()
                        && (attributes.get().lastModifiedTime().toInstant().isBefore(cutoff) || writerDead(file))
                        && files.deleteIfExists(file)) {
                    removed++;
                }
            }
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
        if (reading.trusted() && highest[0] > reading.latest()) {
            // a checkpoint file the head does not cover: put there by hand, or by a writer that does
            // not keep the head (an older version of this module)
            log().info(
                            "The head file {} does not name the highest checkpoint file; readers list the directory"
                                    + " until it is rebuilt",
                            paths.head());
            try {
                head.invalidate(paths);
            } catch (IOException | RuntimeException e) {
                log().warn("Could not invalidate the head file {}: {}", paths.head(), e.toString());
            }
        }
        return removed;
    }

    /** Whether {@code file} is a temporary file of a writer process of this host that has ended. */
    private static boolean writerDead(Path file) {
        return WriterProcess.ofTempName(file.getFileName().toString())
                .filter(WriterProcess::isKnownDead)
                .isPresent();
    }

    /** Looked up when a line is logged: binding SLF4J takes a fresh JVM tens of milliseconds; most runs log nothing. */
    private static Logger log() {
        return LoggerFactory.getLogger(StaleFileSweeper.class);
    }
}
