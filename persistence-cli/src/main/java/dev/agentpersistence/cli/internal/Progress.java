package dev.agentpersistence.cli.internal;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Progress of a long command on standard error: on a terminal one line redrawn in place with a bar, the rate and the
 * time left; otherwise a plain line at most every few seconds, and one at the end.
 */
public final class Progress {
    private static final long PLAIN_EVERY_NANOS = Duration.ofSeconds(5).toNanos();
    private static final long REDRAW_EVERY_NANOS = Duration.ofMillis(200).toNanos();

    private final PrintWriter err;
    private final boolean terminal;
    private final LongSupplier nanoTime;
    private String what = "";
    private long total = -1;
    private long done;
    private long started;
    private long lastShown;

    /** Progress on {@code err}, redrawn in place when {@code terminal}. */
    public Progress(PrintWriter err, boolean terminal, LongSupplier nanoTime) {
        this.err = Objects.requireNonNull(err, "err");
        this.terminal = terminal;
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    /** Starts counting {@code what} ("checkpoints copied"); {@code total} is {@code -1} when not known. */
    public synchronized void start(String what, long total) {
        this.what = what;
        this.total = total;
        this.done = 0;
        this.started = nanoTime.getAsLong();
        this.lastShown = started;
    }

    /** Counts {@code count} more. */
    public synchronized void advance(long count) {
        done += count;
        long now = nanoTime.getAsLong();
        if (now - lastShown >= (terminal ? REDRAW_EVERY_NANOS : PLAIN_EVERY_NANOS)) {
            lastShown = now;
            show(now, false);
        }
    }

    /** Prints the final line. */
    public synchronized void finish() {
        show(nanoTime.getAsLong(), true);
    }

    /** Whether a total is shown (on a terminal), so that it is worth counting first. */
    public boolean showsTotal() {
        return terminal;
    }

    /** How many were counted. */
    public synchronized long done() {
        return done;
    }

    private void show(long now, boolean last) {
        double seconds = Math.max(1e-9, (now - started) / 1e9);
        double rate = done / seconds;
        var line = new StringBuilder();
        if (terminal && total > 0) {
            int width = 30;
            int filled = (int) Math.min(width, width * done / total);
            line.append('[')
                    .append("#".repeat(filled))
                    .append(" ".repeat(width - filled))
                    .append("] ");
        }
        line.append(done);
        if (total >= 0) {
            line.append('/').append(total);
        }
        line.append(' ').append(what).append(String.format(Locale.ROOT, ", %.0f/s", rate));
        if (!last && total > 0 && rate > 0 && done < total) {
            line.append(", ").append(duration((long) ((total - done) / rate))).append(" left");
        }
        if (last) {
            line.append(", ").append(duration((long) seconds)).append(" in all");
        }
        if (terminal) {
            err.print("\r" + line + "\u001b[K" + (last ? System.lineSeparator() : ""));
        } else {
            err.println(line);
        }
        err.flush();
    }

    private static String duration(long seconds) {
        return seconds >= 3600
                ? String.format(Locale.ROOT, "%dh%02dm", seconds / 3600, seconds / 60 % 60)
                : seconds >= 60 ? String.format(Locale.ROOT, "%dm%02ds", seconds / 60, seconds % 60) : seconds + "s";
    }
}
